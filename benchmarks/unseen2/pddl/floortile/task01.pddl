(define (problem floortile-2x2-1) (:domain floortile)
  (:objects tile_0-0 tile_0-1 tile_1-0 tile_1-1 tile_2-0 tile_2-1 - tile
    robot0 - robot white black - color)
  (:init (available-color white) (available-color black) (robot-at robot0 tile_0-0) (robot-has robot0 black) (clear tile_0-1) (clear tile_1-0) (clear tile_1-1) (clear tile_2-0) (clear tile_2-1) (up tile_1-0 tile_0-0) (down tile_0-0 tile_1-0) (right tile_0-1 tile_0-0) (left tile_0-0 tile_0-1) (up tile_1-1 tile_0-1) (down tile_0-1 tile_1-1) (up tile_2-0 tile_1-0) (down tile_1-0 tile_2-0) (right tile_1-1 tile_1-0) (left tile_1-0 tile_1-1) (up tile_2-1 tile_1-1) (down tile_1-1 tile_2-1) (right tile_2-1 tile_2-0) (left tile_2-0 tile_2-1))
  (:goal (and (painted tile_1-0 white) (painted tile_1-1 black) (painted tile_2-0 black) (painted tile_2-1 white))))
