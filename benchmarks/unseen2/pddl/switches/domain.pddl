(define (domain switches)
  (:requirements :strips :typing :negative-preconditions)
  (:types light)
  (:predicates (on ?l - light) (wired ?a ?b - light) (broken ?l - light))
  (:action switch-on
    :parameters (?l - light)
    :precondition (and (not (on ?l)) (not (broken ?l)))
    :effect (on ?l))
  (:action switch-off
    :parameters (?l - light)
    :precondition (on ?l)
    :effect (not (on ?l)))
  (:action repair
    :parameters (?l ?helper - light)
    :precondition (and (broken ?l) (wired ?l ?helper) (not (on ?helper)))
    :effect (not (broken ?l))))
