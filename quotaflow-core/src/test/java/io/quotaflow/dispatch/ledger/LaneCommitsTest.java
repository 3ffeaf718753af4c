package io.quotaflow.dispatch.ledger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LaneCommitsTest {

    @Test
    void shouldAskForTheFirstCommitAtOnceAndThenAtMostOnceEveryGap() {
        LaneCommits commits = new LaneCommits();

        assertThat(commits.due(1_000)).isTrue();
        assertThat(commits.due(1_000)).as("the same moment").isFalse();
        assertThat(commits.due(1_000 + LaneCommits.MIN_GAP_MS - 1)).isFalse();
        assertThat(commits.due(1_000 + LaneCommits.MIN_GAP_MS)).isTrue();
        assertThat(commits.due(1_000 + LaneCommits.MIN_GAP_MS + 5)).isFalse();
    }

    @Test
    void shouldCountOnlyTheRequestsItGrantedTowardsTheGap() {
        LaneCommits commits = new LaneCommits();
        commits.due(0);
        commits.due(15); // refused: does not move the gap on

        assertThat(commits.due(LaneCommits.MIN_GAP_MS)).isTrue();
    }
}
