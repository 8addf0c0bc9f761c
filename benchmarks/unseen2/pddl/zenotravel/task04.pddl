(define (problem zenotravel-4-4) (:domain zenotravel)
  (:objects plane0 plane1 - aircraft
    person0 person1 person2 person3 - person
    city0 city1 city2 city3 - city
    fl0 fl1 fl2 fl3 fl4 fl5 fl6 - flevel)
  (:init (next fl0 fl1) (next fl1 fl2) (next fl2 fl3) (next fl3 fl4) (next fl4 fl5) (next fl5 fl6) (at plane0 city1) (fuel-level plane0 fl4) (at plane1 city1) (fuel-level plane1 fl2) (at person0 city3) (at person1 city0) (at person2 city0) (at person3 city2))
  (:goal (and (at person0 city2) (at person1 city2) (at person2 city1) (at person3 city3) (at plane0 city1))))
