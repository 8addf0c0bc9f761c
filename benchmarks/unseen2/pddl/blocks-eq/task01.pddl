(define (problem blocks-eq-4) (:domain blocks-eq)
  (:objects b0 b1 b2 b3 - block)
  (:init (on b2 table) (on b0 table) (on b1 table) (on b3 table) (clear b2) (clear b0) (clear b1) (clear b3) (clear table))
  (:goal (and (on b0 table) (on b2 table) (on b1 table) (on b3 b2))))
