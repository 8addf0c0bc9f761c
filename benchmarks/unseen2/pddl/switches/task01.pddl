(define (problem switches-4) (:domain switches)
  (:objects light0 light1 light2 light3 - light)
  (:init (wired light0 light1) (wired light1 light2) (wired light2 light3) (wired light3 light0) (broken light2) (broken light3) (on light1) (on light3))
  (:goal (and (on light0) (on light1) (on light2) (on light3))))
