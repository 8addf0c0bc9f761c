(define (problem driverlog-3-2) (:domain driverlog)
  (:objects driver0 - driver
    truck0 - truck
    package0 package1 - obj
    s0 s1 s2 p0-1 p1-0 p2-1 - location)
  (:init (link s0 s1) (link s1 s0) (path s0 p0-1) (path p0-1 s0) (path s1 p0-1) (path p0-1 s1) (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s1) (link s1 s2) (path s2 p2-1) (path p2-1 s2) (path s1 p2-1) (path p2-1 s1) (at driver0 s2) (at truck0 s1) (empty truck0) (at package0 s1) (at package1 s1))
  (:goal (and (at package0 s2) (at package1 s2) (at driver0 s2))))
