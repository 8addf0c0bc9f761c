(define (problem driverlog-4-3) (:domain driverlog)
  (:objects driver0 driver1 - driver
    truck0 truck1 - truck
    package0 package1 package2 - obj
    s0 s1 s2 s3 p1-0 p2-0 p2-1 p3-0 - location)
  (:init (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s0) (link s0 s2) (path s2 p2-0) (path p2-0 s2) (path s0 p2-0) (path p2-0 s0) (link s2 s1) (link s1 s2) (path s2 p2-1) (path p2-1 s2) (path s1 p2-1) (path p2-1 s1) (link s3 s0) (link s0 s3) (path s3 p3-0) (path p3-0 s3) (path s0 p3-0) (path p3-0 s0) (at driver0 s1) (at driver1 s0) (at truck0 s1) (empty truck0) (at truck1 s3) (empty truck1) (at package0 s3) (at package1 s2) (at package2 s3))
  (:goal (and (at package0 s2) (at package1 s3) (at package2 s2) (at driver0 s2))))
