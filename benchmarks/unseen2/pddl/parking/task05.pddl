(define (problem parking-5-7) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 car6 - car
    curb0 curb1 curb2 curb3 curb4 - curb)
  (:init (at-curb car5) (at-curb-num car5 curb0) (behind-car car4 car5) (car-clear car4) (at-curb car6) (at-curb-num car6 curb1) (behind-car car1 car6) (car-clear car1) (at-curb car3) (at-curb-num car3 curb2) (behind-car car2 car3) (car-clear car2) (at-curb car0) (at-curb-num car0 curb3) (car-clear car0) (curb-clear curb4))
  (:goal (and (at-curb-num car3 curb0) (behind-car car2 car3) (at-curb-num car6 curb1) (at-curb-num car0 curb2) (behind-car car4 car0) (at-curb-num car5 curb3) (behind-car car1 car5))))
