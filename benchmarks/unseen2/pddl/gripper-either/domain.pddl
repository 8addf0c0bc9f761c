(define (domain gripper-either)
  (:requirements :strips :typing)
  (:types room ball gripper robot)
  (:predicates (at ?o - (either ball robot) ?r - room) (carry ?b - ball ?g - gripper)
    (free ?g - gripper) (part ?g - gripper ?r - robot))
  (:action move
    :parameters (?rob - robot ?from ?to - room)
    :precondition (at ?rob ?from)
    :effect (and (at ?rob ?to) (not (at ?rob ?from))))
  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper ?rob - robot)
    :precondition (and (at ?b ?r) (at ?rob ?r) (part ?g ?rob) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper ?rob - robot)
    :precondition (and (carry ?b ?g) (at ?rob ?r) (part ?g ?rob))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
