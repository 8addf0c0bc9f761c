(define (problem parking-3-3) (:domain parking)
  (:objects car0 car1 car2 - car
    curb0 curb1 curb2 - curb)
  (:init (at-curb car0) (at-curb-num car0 curb0) (car-clear car0) (at-curb car2) (at-curb-num car2 curb1) (behind-car car1 car2) (car-clear car1) (curb-clear curb2))
  (:goal (and (at-curb-num car1 curb0) (at-curb-num car0 curb1) (behind-car car2 car0))))
