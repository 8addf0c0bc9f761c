(define (problem parking-7-10) (:domain parking)
  (:objects car0 car1 car2 car3 car4 car5 car6 car7 car8 car9 - car
    curb0 curb1 curb2 curb3 curb4 curb5 curb6 - curb)
  (:init (at-curb car1) (at-curb-num car1 curb0) (behind-car car4 car1) (car-clear car4) (at-curb car3) (at-curb-num car3 curb1) (behind-car car9 car3) (car-clear car9) (at-curb car6) (at-curb-num car6 curb2) (behind-car car2 car6) (car-clear car2) (curb-clear curb3) (at-curb car8) (at-curb-num car8 curb4) (behind-car car7 car8) (car-clear car7) (at-curb car0) (at-curb-num car0 curb5) (behind-car car5 car0) (car-clear car5) (curb-clear curb6))
  (:goal (and (at-curb-num car7 curb0) (behind-car car2 car7) (at-curb-num car8 curb1) (behind-car car1 car8) (at-curb-num car4 curb2) (behind-car car3 car4) (at-curb-num car6 curb3) (at-curb-num car5 curb4) (at-curb-num car9 curb5) (behind-car car0 car9))))
