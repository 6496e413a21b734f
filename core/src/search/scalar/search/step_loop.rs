//! The scalar search's side of the slice loop (`search/step_loop.rs`): the root
//! of each iteration with its aspiration window, the step from one node to
//! the next, and stopping.

use super::*;
use crate::search::gives_check::CheckInfo;

impl<E: Evaluator> Sliced for ScalarSearch<E> {
    type Line = ScalarLine;

    fn progress(&mut self) -> &mut Progress<ScalarLine> {
        &mut self.progress
    }

    fn at_root(&self) -> bool {
        self.stack.is_empty()
    }

    /// Pushes the root node of the next (depth, MultiPV index), with the
    /// current aspiration window; `false` when every iteration is done.
    fn begin_root(&mut self) -> bool {
        loop {
            if self.progress.past_last_depth() {
                return false;
            }
            let Some(moves) = self.progress.next_line_moves() else {
                if self.progress.current.is_empty() {
                    return false;
                }
                // Each MultiPV line is searched on its own, so a later one can
                // come out better: order them by score, as they are reported.
                self.progress.current.sort_by_key(|line| core::cmp::Reverse(line.raw));
                for (k, line) in self.progress.current.iter_mut().enumerate() {
                    line.multipv = k + 1;
                }
                self.progress.next_iteration();
                self.window = self.aspiration_window();
                self.delta = ASPIRATION;
                continue;
            };
            // The last iteration's line for this slot goes first.
            let hint = self.progress.line_hint();
            let hash_move =
                self.table.probe(self.progress.root_hash, 0).and_then(|hit| hit.best_move(&self.progress.root_moves));
            if self.progress.pv_index == 0 {
                self.progress.seldepth = 0;
            }
            self.evaluator.set_root(&self.progress.root);
            self.progress.path.truncate(self.progress.game_len + 1);
            let (alpha, beta) = self.window;
            let in_check = self.progress.root.is_check();
            let eval = if in_check {
                -INFINITE
            } else {
                self.static_eval(&self.progress.root.clone(), self.progress.root_hash)
            };
            let (root, hash, depth) = (self.progress.root.clone(), self.progress.root_hash, self.progress.depth as i32);
            let node = self.stack.push(root, hash, 0, depth, (alpha, beta), in_check, eval, &moves);
            self.history.scores(&node.pos, &node.moves, hint.or(hash_move), 0, None, &mut node.scores);
            return true;
        }
    }

    /// One move of the top node: search its next move, or return its score
    /// to its parent. Returns `true` when a root search completed a line.
    fn advance(&mut self) -> bool {
        loop {
            let Some(node) = self.stack.top_mut() else { return false };
            if node.next >= node.moves.len() {
                return self.finish_node();
            }
            let m = pick(&mut node.moves, &mut node.scores, node.next);
            node.next += 1;
            // Told from the node where it can be, so that a pruned move is never played.
            let info = *node.check_info.get_or_insert_with(|| CheckInfo::new(&node.pos));
            let mut played = None;
            let gives_check = info.gives_check(m).unwrap_or_else(|| {
                let mut child = node.pos.clone();
                child.play_unchecked(m);
                let checks = child.is_check();
                played = Some(child);
                checks
            });
            let quiet = !is_tactical(m);
            let depth = node.depth;
            // Pruning, once a move has been searched and no mate is forced
            // against the side to move.
            if node.ply > 0 && !node.in_check && node.best > -MATE_BOUND && !gives_check {
                let prune = if quiet {
                    (depth <= 8 && node.quiets.len() >= late_move_limit(depth, node.pv_node, node.improving))
                        || (depth <= 6 && node.eval + 100 + 100 * depth <= node.alpha)
                        || (depth <= 6 && !see_ge(&node.pos, m, -40 * depth * depth))
                } else {
                    depth <= 6 && !see_ge(&node.pos, m, -120 * depth)
                };
                if prune {
                    continue;
                }
            }
            let mut reduction = 0;
            if depth >= 3 && node.searched > usize::from(node.pv_node) && quiet && !node.in_check && !gives_check {
                reduction = late_move_reduction(depth, node.searched);
                if node.pv_node {
                    reduction -= 1;
                }
                let turn = node.pos.turn();
                if self.history.is_refutation(turn, m, node.ply as usize, node.previous) {
                    reduction -= 1;
                }
                reduction -= self.history.score(turn, m) / 8192;
                if !node.improving {
                    reduction += 1;
                }
                reduction = reduction.clamp(0, depth - 2);
            }
            if quiet {
                node.quiets.push(m);
            }
            let child = played.unwrap_or_else(|| {
                let mut child = node.pos.clone();
                child.play_unchecked(m);
                child
            });
            debug_assert_eq!(gives_check, child.is_check(), "{m}");
            let (alpha, beta) = (node.alpha, node.beta);
            if node.searched == 0 {
                self.descend(m, child, gives_check, depth - 1, 0, -beta, -alpha, false);
            } else {
                self.descend(m, child, gives_check, depth - 1 - reduction, reduction, -alpha - 1, -alpha, true);
            }
            return false;
        }
    }

    fn stop(&mut self) {
        Search::stop(self)
    }
}
