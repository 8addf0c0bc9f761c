(define (problem driverlog-4-2) (:domain driverlog)
  (:objects driver0 driver1 - driver
    truck0 - truck
    package0 package1 - obj
    s0 s1 s2 s3 p0-1 p1-0 p2-0 p3-1 - location)
  (:init (link s0 s1) (link s1 s0) (path s0 p0-1) (path p0-1 s0) (path s1 p0-1) (path p0-1 s1) (link s1 s0) (link s0 s1) (path s1 p1-0) (path p1-0 s1) (path s0 p1-0) (path p1-0 s0) (link s2 s0) (link s0 s2) (path s2 p2-0) (path p2-0 s2) (path s0 p2-0) (path p2-0 s0) (link s3 s1) (link s1 s3) (path s3 p3-1) (path p3-1 s3) (path s1 p3-1) (path p3-1 s1) (at driver0 s3) (at driver1 s1) (at truck0 s0) (empty truck0) (at package0 s3) (at package1 s3))
  (:goal (and (at package0 s0) (at package1 s1) (at driver0 s0))))
