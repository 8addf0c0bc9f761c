(define (problem switches-6) (:domain switches)
  (:objects light0 light1 light2 light3 light4 light5 - light)
  (:init (wired light0 light1) (wired light1 light2) (wired light2 light3) (wired light3 light4) (wired light4 light5) (wired light5 light0) (broken light0) (broken light3) (broken light4) (broken light5) (on light2) (on light3) (on light5))
  (:goal (and (on light0) (on light1) (on light2) (on light3) (on light4) (on light5))))
