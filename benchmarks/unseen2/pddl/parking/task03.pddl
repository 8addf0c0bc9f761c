(define (problem parking-4-5) (:domain parking)
  (:objects car0 car1 car2 car3 car4 - car
    curb0 curb1 curb2 curb3 - curb)
  (:init (at-curb car2) (at-curb-num car2 curb0) (car-clear car2) (at-curb car4) (at-curb-num car4 curb1) (behind-car car0 car4) (car-clear car0) (at-curb car1) (at-curb-num car1 curb2) (behind-car car3 car1) (car-clear car3) (curb-clear curb3))
  (:goal (and (at-curb-num car2 curb0) (at-curb-num car1 curb1) (behind-car car4 car1) (at-curb-num car3 curb2) (behind-car car0 car3))))
