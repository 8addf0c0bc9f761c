(define (problem parking-4-4) (:domain parking)
  (:objects car0 car1 car2 car3 - car
    curb0 curb1 curb2 curb3 - curb)
  (:init (at-curb car0) (at-curb-num car0 curb0) (car-clear car0) (at-curb car3) (at-curb-num car3 curb1) (behind-car car2 car3) (car-clear car2) (at-curb car1) (at-curb-num car1 curb2) (car-clear car1) (curb-clear curb3))
  (:goal (and (at-curb-num car0 curb0) (behind-car car1 car0) (at-curb-num car3 curb1) (at-curb-num car2 curb2))))
