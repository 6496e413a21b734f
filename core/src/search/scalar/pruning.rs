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
