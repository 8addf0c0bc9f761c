(define (problem switches-8) (:domain switches)
  (:objects light0 light1 light2 light3 light4 light5 light6 light7 - light)
  (:init (wired light0 light1) (wired light1 light2) (wired light2 light3) (wired light3 light4) (wired light4 light5) (wired light5 light6) (wired light6 light7) (wired light7 light0) (broken light2) (broken light3) (broken light7) (on light3) (on light4) (on light5))
  (:goal (and (on light0) (on light1) (on light2) (on light3) (on light4) (on light5) (on light6) (on light7))))
