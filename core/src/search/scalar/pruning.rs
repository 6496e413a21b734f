//! The scalar search's late-move schedules: how many quiet moves a node
//! searches before pruning the rest, and how much later moves are reduced.

/// How many quiet moves a node at `depth` searches before pruning the rest:
/// half as many where the static evaluation is not improving.
pub(super) fn late_move_limit(depth: i32, pv_node: bool, improving: bool) -> usize {
    let limit = 3 + depth * depth;
    let limit = if pv_node { limit * 2 } else { limit };
    (if improving { limit } else { limit / 2 }) as usize
}

/// The late-move reduction of the `searched`-th move at `depth`:
/// `ln(depth) · ln(moves) / 2`, rounded down.
pub(super) fn late_move_reduction(depth: i32, searched: usize) -> i32 {
    let value = libm::logf(depth as f32) * libm::logf(searched as f32 + 1.0) / 2.0;
    value as i32
}

#[cfg(test)]
mod tests {
    use super::{late_move_limit, late_move_reduction};

    #[test]
    fn the_late_move_limit_grows_with_depth_doubles_at_pv_nodes_and_halves_without_improvement() {
        assert_eq!(late_move_limit(1, false, true), 4);
        assert_eq!(late_move_limit(1, false, false), 2);
        assert_eq!(late_move_limit(3, false, true), 12);
        assert_eq!(late_move_limit(3, true, true), 24);
        assert_eq!(late_move_limit(3, true, false), 12);
        assert_eq!(late_move_limit(8, false, false), 33);
        for depth in 1..8 {
            for (pv, improving) in [(false, false), (false, true), (true, false), (true, true)] {
                assert!(late_move_limit(depth + 1, pv, improving) > late_move_limit(depth, pv, improving));
            }
        }
    }

    #[test]
    fn late_moves_at_deep_nodes_are_reduced_more() {
        // ln 3 · ln 2 / 2 = 0.38; ln 10 · ln 21 / 2 = 3.51.
        assert_eq!(late_move_reduction(3, 1), 0);
        assert_eq!(late_move_reduction(10, 20), 3);
        for depth in 3..20 {
            for searched in 1..40 {
                assert!(late_move_reduction(depth, searched + 1) >= late_move_reduction(depth, searched));
                assert!(late_move_reduction(depth + 1, searched) >= late_move_reduction(depth, searched));
            }
        }
    }
}
