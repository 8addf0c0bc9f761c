(define (problem parking-6-9) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 car6 car7 car8 - car
    curb0 curb1 curb2 curb3 curb4 curb5 - curb)
  (:init (at-curb car3) (at-curb-num car3 curb0) (behind-car car1 car3) (car-clear car1) (at-curb car2) (at-curb-num car2 curb1) (car-clear car2) (at-curb car5) (at-curb-num car5 curb2) (behind-car car8 car5) (car-clear car8) (at-curb car4) (at-curb-num car4 curb3) (behind-car car7 car4) (car-clear car7) (at-curb car0) (at-curb-num car0 curb4) (behind-car car6 car0) (car-clear car6) (curb-clear curb5))
  (:goal (and (at-curb-num car0 curb0) (behind-car car4 car0) (at-curb-num car7 curb1) (behind-car car3 car7) (at-curb-num car2 curb2) (behind-car car1 car2) (at-curb-num car6 curb3) (behind-car car5 car6) (at-curb-num car8 curb4))))
