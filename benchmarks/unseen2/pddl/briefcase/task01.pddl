(define (problem briefcase-3-2) (:domain briefcase)
  (:objects obj0 obj1 - portable
    loc0 loc1 loc2 - location)
  (:init (is-at loc0) (at obj0 loc1) (at obj1 loc1))
  (:goal (and (is-at loc1) (at obj0 loc0) (not (in obj0)) (at obj1 loc2) (not (in obj1)))))
