(define (problem zenotravel-4-3) (:domain zenotravel)
  (:objects plane0 plane1 - aircraft
    person0 person1 person2 - person
    city0 city1 city2 city3 - city
    fl0 fl1 fl2 fl3 fl4 fl5 fl6 - flevel)
  (:init (next fl0 fl1) (next fl1 fl2) (next fl2 fl3) (next fl3 fl4) (next fl4 fl5) (next fl5 fl6) (at plane0 city0) (fuel-level plane0 fl0) (at plane1 city0) (fuel-level plane1 fl2) (at person0 city1) (at person1 city2) (at person2 city1))
  (:goal (and (at person0 city2) (at person1 city1) (at person2 city2) (at plane0 city0))))
