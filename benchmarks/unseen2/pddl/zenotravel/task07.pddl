(define (problem zenotravel-6-6) (:domain zenotravel)
  (:objects plane0 plane1 plane2 - aircraft
    person0 person1 person2 person3 person4 person5 - person
    city0 city1 city2 city3 city4 city5 - city
    fl0 fl1 fl2 fl3 fl4 fl5 fl6 - flevel)
  (:init (next fl0 fl1) (next fl1 fl2) (next fl2 fl3) (next fl3 fl4) (next fl4 fl5) (next fl5 fl6) (at plane0 city4) (fuel-level plane0 fl6) (at plane1 city0) (fuel-level plane1 fl3) (at plane2 city2) (fuel-level plane2 fl0) (at person0 city0) (at person1 city5) (at person2 city3) (at person3 city2) (at person4 city2) (at person5 city1))
  (:goal (and (at person0 city1) (at person1 city4) (at person2 city2) (at person3 city0) (at person4 city3) (at person5 city3) (at plane0 city4))))
