(define (problem blocks-eq-8) (:domain blocks-eq)
  (:objects b0 b1 b2 b3 b4 b5 b6 b7 - block)
  (:init (on b5 table) (on b3 table) (on b4 table) (on b1 b3) (on b2 b5) (on b6 b1) (on b7 table) (on b0 b7) (clear b4) (clear b2) (clear b6) (clear b0) (clear table))
  (:goal (and (on b1 table) (on b7 table) (on b0 b7) (on b2 b0) (on b6 b2) (on b3 b6) (on b4 table) (on b5 b3))))
