(define (problem zenotravel-6-7) (:domain zenotravel)
  (:objects plane0 plane1 plane2 - aircraft
    person0 person1 person2 person3 person4 person5 person6 - person
    city0 city1 city2 city3 city4 city5 - city
    fl0 fl1 fl2 fl3 fl4 fl5 fl6 - flevel)
  (:init (next fl0 fl1) (next fl1 fl2) (next fl2 fl3) (next fl3 fl4) (next fl4 fl5) (next fl5 fl6) (at plane0 city2) (fuel-level plane0 fl1) (at plane1 city3) (fuel-level plane1 fl5) (at plane2 city0) (fuel-level plane2 fl0) (at person0 city4) (at person1 city2) (at person2 city0) (at person3 city1) (at person4 city0) (at person5 city3) (at person6 city1))
  (:goal (and (at person0 city0) (at person1 city4) (at person2 city4) (at person3 city0) (at person4 city3) (at person5 city0) (at person6 city0) (at plane0 city4))))
