(define (problem gripper-either-6) (:domain gripper-either)
  (:objects robby - robot left right - gripper
    room0 room1 room2 - room
    ball0 ball1 ball2 ball3 ball4 ball5 - ball)
  (:init (at robby room0) (part left robby) (part right robby) (free left) (free right) (at ball0 room0) (at ball1 room0) (at ball2 room0) (at ball3 room2) (at ball4 room1) (at ball5 room0))
  (:goal (and (at ball0 room0) (at ball1 room1) (at ball2 room2) (at ball3 room1) (at ball4 room2) (at ball5 room2))))
