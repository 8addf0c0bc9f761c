(define (problem zenotravel-5-5) (:domain zenotravel)
  (:objects plane0 plane1 - aircraft
    person0 person1 person2 person3 person4 - person
    city0 city1 city2 city3 city4 - city
    fl0 fl1 fl2 fl3 fl4 fl5 fl6 - flevel)
  (:init (next fl0 fl1) (next fl1 fl2) (next fl2 fl3) (next fl3 fl4) (next fl4 fl5) (next fl5 fl6) (at plane0 city1) (fuel-level plane0 fl2) (at plane1 city0) (fuel-level plane1 fl5) (at person0 city3) (at person1 city1) (at person2 city0) (at person3 city3) (at person4 city0))
  (:goal (and (at person0 city4) (at person1 city0) (at person2 city4) (at person3 city2) (at person4 city1) (at plane0 city4))))
