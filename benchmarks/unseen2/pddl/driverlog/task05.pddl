(define (problem driverlog-5-4) (:domain driverlog)
  (:objects driver0 driver1 - driver
    truck0 truck1 - truck
    package0 package1 package2 package3 - obj
    s0 s1 s2 s3 s4 p0-4 p1-0 p2-1 p3-0 p3-1 p4-3 - location)
  (:init (link s0 s4) (link s4 s0) (path s0 p0-4) (path p0-4 s0) (path s4 p0-4) (path p0-4 s4) (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s1) (link s1 s2) (path s2 p2-1) (path p2-1 s2) (path s1 p2-1) (path p2-1 s1) (link s3 s0) (link s0 s3) (path s3 p3-0) (path p3-0 s3) (path s0 p3-0) (path p3-0 s0) (link s3 s1) (link s1 s3) (path s3 p3-1) (path p3-1 s3) (path s1 p3-1) (path p3-1 s1) (link s4 s3) (link s3 s4) (path s4 p4-3) (path p4-3 s4) (path s3 p4-3) (path p4-3 s3) (at driver0 s0) (at driver1 s3) (at truck0 s4) (empty truck0) (at truck1 s2) (empty truck1) (at package0 s0) (at package1 s4) (at package2 s2) (at package3 s0))
  (:goal (and (at package0 s1) (at package1 s2) (at package2 s1) (at package3 s2) (at driver0 s1))))
