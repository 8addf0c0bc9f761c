(define (problem parking-6-8) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 car6 car7 - car
    curb0 curb1 curb2 curb3 curb4 curb5 - curb)
  (:init (at-curb car6) (at-curb-num car6 curb0) (behind-car car1 car6) (car-clear car1) (at-curb car3) (at-curb-num car3 curb1) (car-clear car3) (at-curb car2) (at-curb-num car2 curb2) (car-clear car2) (at-curb car0) (at-curb-num car0 curb3) (behind-car car4 car0) (car-clear car4) (at-curb car7) (at-curb-num car7 curb4) (behind-car car5 car7) (car-clear car5) (curb-clear curb5))
  (:goal (and (at-curb-num car5 curb0) (behind-car car1 car5) (at-curb-num car6 curb1) (behind-car car3 car6) (at-curb-num car0 curb2) (behind-car car4 car0) (at-curb-num car2 curb3) (at-curb-num car7 curb4))))
