(define (problem driverlog-5-3) (:domain driverlog)
  (:objects driver0 driver1 - driver
    truck0 truck1 - truck
    package0 package1 package2 - obj
    s0 s1 s2 s3 s4 p1-0 p2-0 p3-1 p4-0 p4-3 - location)
  (:init (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s0) (link s0 s2) (path s2 p2-0) (path p2-0 s2) (path s0 p2-0) (path p2-0 s0) (link s3 s1) (link s1 s3) (path s3 p3-1) (path p3-1 s3) (path s1 p3-1) (path p3-1 s1) (link s4 s0) (link s0 s4) (path s4 p4-0) (path p4-0 s4) (path s0 p4-0) (path p4-0 s0) (link s4 s3) (link s3 s4) (path s4 p4-3) (path p4-3 s4) (path s3 p4-3) (path p4-3 s3) (at driver0 s3) (at driver1 s2) (at truck0 s4) (empty truck0) (at truck1 s1) (empty truck1) (at package0 s1) (at package1 s4) (at package2 s3))
  (:goal (and (at package0 s3) (at package1 s3) (at package2 s1) (at driver0 s1))))
