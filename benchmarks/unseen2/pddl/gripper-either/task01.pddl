(define (problem gripper-either-2) (:domain gripper-either)
  (:objects robby - robot left right - gripper
    room0 room1 - room
    ball0 ball1 - ball)
  (:init (at robby room0) (part left robby) (part right robby) (free left) (free right) (at ball0 room1) (at ball1 room0))
  (:goal (and (at ball0 room1) (at ball1 room1))))
