package io.quotaflow.cache;

import io.quotaflow.records.Priority;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.quotaflow.cache.CoalescingRules.Placement.HIT;
import static io.quotaflow.cache.CoalescingRules.Placement.JOIN;
import static io.quotaflow.cache.CoalescingRules.Placement.LEAD;
import static io.quotaflow.cache.CoalescingRules.Placement.LEAD_ALONE;
import static io.quotaflow.cache.CoalescingRules.Step.CONTINUE_LEADING;
import static io.quotaflow.cache.CoalescingRules.Step.LEAVE_THEN_PLACE;
import static io.quotaflow.cache.CoalescingRules.Step.PASS;
import static io.quotaflow.cache.CoalescingRules.Step.PLACE;
import static io.quotaflow.cache.CoalescingRules.Step.STAY_FOLLOWER;
import static org.assertj.core.api.Assertions.assertThat;

/** The coalescing rules as a table: what an arrival means, and where new content goes. */
class CoalescingRulesTest {

    private static final ContentKey K1 = new ContentKey("1".repeat(64));
    private static final ContentKey K2 = new ContentKey("2".repeat(64));
    private static final CacheLookup HIT_LOOKUP = new CacheLookup.Hit(new CachedAnswer("billing", "low", "m", 1, 2, 3, 4));
    private static final CacheLookup MISS = new CacheLookup.Miss(false);
    private static final Optional<Group> LED_BY_T0 = Optional.of(new Group("T-0", Priority.STANDARD, 4));
    private static final Priority STD = Priority.STANDARD;

    private static Optional<Membership> leads(ContentKey key) {
        return Optional.of(Membership.leader(key));
    }

    private static Optional<Membership> follows(ContentKey key) {
        return Optional.of(Membership.follower(key, 3));
    }

    @Test
    void shouldPlaceAFreshTicketOfNoGroupAndPassARetryOfNoGroup() {
        assertThat(CoalescingRules.onArrival(Optional.empty(), K1, false)).isEqualTo(PLACE);
        assertThat(CoalescingRules.onArrival(Optional.empty(), K1, true)).isEqualTo(PASS);
    }

    @Test
    void shouldKeepALeaderLeadingWhenItsRetryOrAnIdenticalCopyArrives() {
        assertThat(CoalescingRules.onArrival(leads(K1), K1, true)).isEqualTo(CONTINUE_LEADING);
        assertThat(CoalescingRules.onArrival(leads(K1), K1, false)).isEqualTo(CONTINUE_LEADING);
    }

    @Test
    void shouldMoveALeaderUpdatedWithOtherContentAndPassItsStaleRetry() {
        assertThat(CoalescingRules.onArrival(leads(K1), K2, false)).isEqualTo(LEAVE_THEN_PLACE);
        assertThat(CoalescingRules.onArrival(leads(K1), K2, true)).isEqualTo(PASS);
    }

    @Test
    void shouldKeepAnIdenticalFollowerAndMoveAnUpdatedOne() {
        assertThat(CoalescingRules.onArrival(follows(K1), K1, false)).isEqualTo(STAY_FOLLOWER);
        assertThat(CoalescingRules.onArrival(follows(K1), K2, false)).isEqualTo(LEAVE_THEN_PLACE);
        assertThat(CoalescingRules.onArrival(follows(K1), K1, true)).as("a follower was never sent").isEqualTo(PASS);
    }

    @Test
    void shouldAnswerFromTheCacheBeforeJoiningAndJoinBeforeLeading() {
        assertThat(CoalescingRules.place(HIT_LOOKUP, LED_BY_T0, "T-1", STD, true, false)).isEqualTo(HIT);
        assertThat(CoalescingRules.place(MISS, LED_BY_T0, "T-1", STD, true, false)).isEqualTo(JOIN);
        assertThat(CoalescingRules.place(MISS, Optional.empty(), "T-1", STD, true, false)).isEqualTo(LEAD);
        assertThat(CoalescingRules.place(new CacheLookup.Miss(true), Optional.empty(), "T-1", STD, true, false)).isEqualTo(LEAD);
    }

    @Test
    void shouldNeverMakeATicketWaitForALessUrgentLeader() {
        assertThat(CoalescingRules.place(MISS, LED_BY_T0, "T-1", Priority.BULK, true, false)).isEqualTo(JOIN);
        assertThat(CoalescingRules.place(MISS, LED_BY_T0, "T-1", Priority.INTERACTIVE, true, false))
                .as("takes the group over").isEqualTo(LEAD);
    }

    @Test
    void shouldNeverMakeATicketFollowItself() {
        assertThat(CoalescingRules.place(MISS, Optional.of(new Group("T-1", STD, 0)), "T-1", STD, true, false)).isEqualTo(LEAD);
    }

    @Test
    void shouldHandTheLedgerATicketItHoldsThatNoGroupKnows() {
        assertThat(CoalescingRules.place(HIT_LOOKUP, Optional.empty(), "T-1", STD, true, true)).isEqualTo(LEAD);
        assertThat(CoalescingRules.place(MISS, LED_BY_T0, "T-1", STD, true, true)).isEqualTo(LEAD_ALONE);
    }

    @Test
    void shouldLeadAloneWhenTheCacheIsOff() {
        assertThat(CoalescingRules.place(HIT_LOOKUP, LED_BY_T0, "T-1", STD, false, false)).isEqualTo(LEAD_ALONE);
        assertThat(CoalescingRules.place(MISS, Optional.empty(), "T-1", STD, false, false)).isEqualTo(LEAD_ALONE);
    }
}
