(define (problem elevators-4-3) (:domain elevators)
  (:objects fast0 - fast-elevator slow0 slow1 - slow-elevator
    p0 p1 p2 - passenger
    n0 n1 n2 n3 n4 c0 c1 c2 c3 - count)
  (:init (next c0 c1) (next c1 c2) (next c2 c3) (above n0 n1) (above n0 n2) (above n0 n3) (above n0 n4) (above n1 n2) (above n1 n3) (above n1 n4) (above n2 n3) (above n2 n4) (above n3 n4) (lift-at fast0 n0) (passengers fast0 c0) (can-hold fast0 c1) (can-hold fast0 c2) (reachable-floor fast0 n0) (reachable-floor fast0 n2) (reachable-floor fast0 n4) (lift-at slow0 n0) (passengers slow0 c0) (can-hold slow0 c1) (can-hold slow0 c2) (reachable-floor slow0 n0) (reachable-floor slow0 n1) (reachable-floor slow0 n2) (lift-at slow1 n4) (passengers slow1 c0) (can-hold slow1 c1) (can-hold slow1 c2) (reachable-floor slow1 n2) (reachable-floor slow1 n3) (reachable-floor slow1 n4) (passenger-at p0 n0) (passenger-at p1 n0) (passenger-at p2 n3))
  (:goal (and (passenger-at p0 n2) (passenger-at p1 n3) (passenger-at p2 n4))))
