(define (problem parking-5-6) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 - car
    curb0 curb1 curb2 curb3 curb4 - curb)
  (:init (at-curb car0) (at-curb-num car0 curb0) (behind-car car2 car0) (car-clear car2) (at-curb car4) (at-curb-num car4 curb1) (behind-car car1 car4) (car-clear car1) (at-curb car3) (at-curb-num car3 curb2) (behind-car car5 car3) (car-clear car5) (curb-clear curb3) (curb-clear curb4))
  (:goal (and (at-curb-num car5 curb0) (at-curb-num car2 curb1) (behind-car car0 car2) (at-curb-num car4 curb2) (at-curb-num car1 curb3) (behind-car car3 car1))))
