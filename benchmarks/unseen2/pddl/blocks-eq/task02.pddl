(define (problem blocks-eq-6) (:domain blocks-eq)
  (:objects b0 b1 b2 b3 b4 b5 - block)
  (:init (on b2 table) (on b3 table) (on b5 b3) (on b0 b5) (on b4 table) (on b1 table) (clear b2) (clear b0) (clear b4) (clear b1) (clear table))
  (:goal (and (on b2 table) (on b5 table) (on b4 table) (on b3 b2) (on b0 table) (on b1 b3))))
