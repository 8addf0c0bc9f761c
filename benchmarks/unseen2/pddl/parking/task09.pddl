(define (problem parking-7-11) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 car6 car7 car8 car9 car10 - car
    curb0 curb1 curb2 curb3 curb4 curb5 curb6 - curb)
  (:init (at-curb car0) (at-curb-num car0 curb0) (behind-car car3 car0) (car-clear car3) (at-curb car7) (at-curb-num car7 curb1) (behind-car car6 car7) (car-clear car6) (at-curb car5) (at-curb-num car5 curb2) (car-clear car5) (at-curb car10) (at-curb-num car10 curb3) (behind-car car9 car10) (car-clear car9) (at-curb car8) (at-curb-num car8 curb4) (behind-car car1 car8) (car-clear car1) (at-curb car4) (at-curb-num car4 curb5) (behind-car car2 car4) (car-clear car2) (curb-clear curb6))
  (:goal (and (at-curb-num car4 curb0) (behind-car car2 car4) (at-curb-num car0 curb1) (behind-car car7 car0) (at-curb-num car8 curb2) (behind-car car1 car8) (at-curb-num car6 curb3) (at-curb-num car10 curb4) (behind-car car3 car10) (at-curb-num car5 curb5) (behind-car car9 car5))))
