package io.quotaflow.cache;

import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Coalescing over the dispatcher's stores: join, answer, failure, leader gone, updates, retries, restart. */
class CoalescerTest {

    private static final long NOW = 1_700_000_000_000L;

    private final CacheFixture fixture = new CacheFixture();
    private final Coalescer coalescer = fixture.coalescer();

    private final WorkItem a = fixture.ticket("A", "Refund", "I was charged twice");
    private final WorkItem b = fixture.ticket("B", " Refund ", "I was  charged\ntwice");
    private final WorkItem c = fixture.ticket("C", "Refund", "I was charged twice");
    private final WorkItem other = fixture.ticket("X", "Login", "Cannot sign in");
    private final ContentKey refund = CacheFixture.key(a);

    private Arrival arrive(WorkItem item) {
        return coalescer.onArrival(item, CacheFixture.key(item), false, NOW);
    }

    @Test
    void shouldLeadTheFirstTicketAndJoinIdenticalOnesToIt() {
        assertThat(arrive(a)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(arrive(b)).as("same content, other whitespace").isEqualTo(new Arrival.Join("A", false, Departure.NONE));
        assertThat(arrive(c)).isEqualTo(new Arrival.Join("A", false, Departure.NONE));
        assertThat(arrive(other)).isEqualTo(new Arrival.Lead(true, Departure.NONE));

        assertThat(coalescer.followers(refund)).containsExactly(b, c);
        assertThat(coalescer.leaderOf(refund)).contains("A");
        assertThat(coalescer.membership("B")).contains(Membership.follower(refund, 0));
        assertThat(coalescer.membership("A")).contains(Membership.leader(refund));
    }

    @Test
    void shouldAnswerFollowersWithTheLeadersCallAndCacheTheAnswer() {
        arrive(a);
        arrive(b);
        arrive(c);

        Answered answered = coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "high"), NOW + 100);

        assertThat(answered.followers()).containsExactly(b, c);
        assertThat(answered.followers().get(0).original()).isEqualTo(b.original());
        assertThat(answered.answer()).isEqualTo(new CachedAnswer("billing", "high", "gpt-4o-mini", NOW + 100,
                NOW + 100 + CacheFixture.TTL.toMillis(), 120, 30));
        assertThat(coalescer.leaderOf(refund)).isEmpty();
        assertThat(coalescer.membership("A")).isEmpty();
        assertThat(coalescer.membership("B")).isEmpty();
        assertThat(fixture.entries(CacheStores.FOLLOWERS)).isZero();

        WorkItem d = fixture.ticket("D", "Refund", "I was charged twice");
        Arrival hit = coalescer.onArrival(d, CacheFixture.key(d), false, NOW + 200);
        assertThat(hit).isEqualTo(new Arrival.Hit(answered.answer(), Departure.NONE));
        assertThat(coalescer.membership("D")).as("a hit is held nowhere").isEmpty();
    }

    @Test
    void shouldLeadAgainOnceTheCachedAnswerHasExpired() {
        arrive(a);
        coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW);

        long later = NOW + CacheFixture.TTL.toMillis();
        assertThat(coalescer.onArrival(b, refund, false, later - 1)).isInstanceOf(Arrival.Hit.class);
        assertThat(coalescer.onArrival(c, refund, false, later)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
    }

    @Test
    void shouldCountALeaderAnsweredWithoutFollowersAsNoFollowers() {
        arrive(a);

        assertThat(coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers()).isEmpty();
        assertThat(coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers())
                .as("answered twice: nobody to answer again").isEmpty();
    }

    @Test
    void shouldAnswerALeaderNobodyEverJoinedWithoutScanningTheFollowersAndStillDrainOnesThatDid() {
        arrive(a);
        arrive(other);
        coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW);
        coalescer.onLeaderFailed(CacheFixture.key(other), "X");
        assertThat(fixture.followerScans()).as("no follower ever joined either group").isZero();

        WorkItem d = fixture.ticket("D", "Login", "Cannot sign in at all");
        WorkItem e = fixture.ticket("E", "Login", "Cannot sign in at all");
        arrive(d);
        arrive(e);
        assertThat(coalescer.onAnswered(CacheFixture.key(d), "D", CacheFixture.answer("account", "low"), NOW).followers())
                .as("a group with a follower is still drained").containsExactly(e);
        assertThat(fixture.followerScans()).isEqualTo(1);
    }

    @Test
    void shouldDeadLetterFollowersWithTheirLeader() {
        arrive(a);
        arrive(b);

        assertThat(coalescer.onLeaderFailed(refund, "A")).containsExactly(b);
        assertThat(coalescer.leaderOf(refund)).isEmpty();
        assertThat(coalescer.membership("B")).isEmpty();
        assertThat(arrive(c)).as("nothing cached from a failure").isEqualTo(new Arrival.Lead(true, Departure.NONE));
    }

    @Test
    void shouldIgnoreFailureAndGoneReportsForATicketThatDoesNotLead() {
        arrive(a);
        arrive(b);

        assertThat(coalescer.onLeaderFailed(refund, "B")).isEmpty();
        assertThat(coalescer.onLeaderGone(refund, "X")).isEqualTo(Departure.NONE);
        assertThat(coalescer.followers(refund)).containsExactly(b);
        assertThat(coalescer.leaderOf(refund)).contains("A");
    }

    @Test
    void shouldPromoteTheFirstFollowerWhenTheLeaderIsGone() {
        arrive(a);
        arrive(b);
        arrive(c);

        Departure gone = coalescer.onLeaderGone(refund, "A");

        assertThat(gone).isEqualTo(new Departure.HandedOver(refund, Optional.of(b)));
        assertThat(coalescer.leaderOf(refund)).contains("B");
        assertThat(coalescer.followers(refund)).containsExactly(c);
        assertThat(coalescer.membership("A")).isEmpty();
        assertThat(coalescer.membership("B")).contains(Membership.leader(refund));
        assertThat(coalescer.onAnswered(refund, "B", CacheFixture.answer("billing", "low"), NOW).followers()).containsExactly(c);
    }

    @Test
    void shouldPromoteTheFirstOfTheMostUrgentFollowers() {
        WorkItem lead = fixture.ticket("L", "Refund", "I was charged twice", Priority.INTERACTIVE);
        WorkItem bulk = fixture.ticket("B1", "Refund", "I was charged twice", Priority.BULK);
        WorkItem standard = fixture.ticket("S1", "Refund", "I was charged twice", Priority.STANDARD);
        WorkItem standard2 = fixture.ticket("S2", "Refund", "I was charged twice", Priority.STANDARD);
        arrive(lead);
        arrive(bulk);
        arrive(standard);
        arrive(standard2);

        assertThat(coalescer.onLeaderGone(refund, "L")).isEqualTo(new Departure.HandedOver(refund, Optional.of(standard)));
        assertThat(coalescer.followers(refund)).containsExactly(bulk, standard2);
    }

    @Test
    void shouldLetAMoreUrgentTicketTakeTheGroupOverFromALessUrgentLeader() {
        WorkItem bulk = fixture.ticket("B1", "Refund", "I was charged twice", Priority.BULK);
        WorkItem bulk2 = fixture.ticket("B2", "Refund", "I was charged twice", Priority.BULK);
        WorkItem urgent = fixture.ticket("I1", "Refund", "I was charged twice", Priority.INTERACTIVE);
        arrive(bulk);
        arrive(bulk2);

        assertThat(arrive(urgent)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(coalescer.leaderOf(refund)).contains("I1");
        assertThat(coalescer.membership("B1")).as("the old leader goes on alone").isEmpty();
        assertThat(coalescer.followers(refund)).containsExactly(bulk2);
        assertThat(arrive(b)).as("a standard ticket follows the interactive leader").isEqualTo(new Arrival.Join("I1", false, Departure.NONE));
        assertThat(coalescer.onAnswered(refund, "B1", CacheFixture.answer("billing", "low"), NOW).followers())
                .as("whichever call answers first answers the followers").containsExactly(bulk2, b);
        assertThat(coalescer.leaderOf(refund)).contains("I1");
    }

    @Test
    void shouldHandTheGroupToAMoreUrgentFollowerWhenTheLeaderIsRepublishedLessUrgent() {
        WorkItem lead = fixture.ticket("L", "Refund", "I was charged twice", Priority.INTERACTIVE);
        WorkItem urgent = fixture.ticket("I1", "Refund", "I was charged twice", Priority.INTERACTIVE);
        arrive(lead);
        arrive(urgent);
        arrive(b);

        Arrival demoted = arrive(fixture.ticket("L", "Refund", "I was charged twice", Priority.BULK));

        assertThat(demoted).isEqualTo(new Arrival.Lead(false, new Departure.HandedOver(refund, Optional.of(urgent))));
        assertThat(coalescer.leaderOf(refund)).contains("I1");
        assertThat(coalescer.followers(refund)).containsExactly(b);
        assertThat(coalescer.membership("L")).as("goes on alone").isEmpty();
    }

    @Test
    void shouldKeepLeadingInTheNewClassWhenNoFollowerOutranksIt() {
        arrive(a);
        arrive(fixture.ticket("C", "Refund", "I was charged twice", Priority.BULK));

        assertThat(arrive(fixture.ticket("A", "Refund", "I was charged twice", Priority.BULK)))
                .isEqualTo(new Arrival.Lead(false, Departure.NONE));
        assertThat(arrive(fixture.ticket("S", "Refund", "I was charged twice", Priority.STANDARD)))
                .as("a standard ticket no longer waits for the now bulk leader").isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(coalescer.leaderOf(refund)).contains("S");
    }

    @Test
    void shouldDissolveTheGroupWhenItsLeaderIsGoneWithoutFollowers() {
        arrive(a);

        assertThat(coalescer.onLeaderGone(refund, "A")).isEqualTo(new Departure.HandedOver(refund, Optional.empty()));
        assertThat(coalescer.leaderOf(refund)).isEmpty();
        assertThat(arrive(b)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
    }

    @Test
    void shouldHandTheGroupOverWhenTheLeaderIsUpdatedWithOtherContent() {
        arrive(a);
        arrive(b);
        WorkItem updated = fixture.ticket("A", "Login", "Cannot sign in");

        Arrival arrival = arrive(updated);

        assertThat(arrival).isEqualTo(new Arrival.Lead(true, new Departure.HandedOver(refund, Optional.of(b))));
        assertThat(coalescer.leaderOf(refund)).contains("B");
        assertThat(coalescer.leaderOf(CacheFixture.key(updated))).contains("A");
        assertThat(coalescer.membership("A")).contains(Membership.leader(CacheFixture.key(updated)));
    }

    @Test
    void shouldLetAnUpdatedLeaderJoinTheGroupOfItsNewContent() {
        arrive(other);
        arrive(a);
        arrive(b);
        WorkItem updated = fixture.ticket("A", "Login", "Cannot sign in");

        Arrival arrival = coalescer.onArrival(updated, CacheFixture.key(updated), true, NOW);

        assertThat(arrival).as("its held copy is the one it hands over, so it may join")
                .isEqualTo(new Arrival.Join("X", false, new Departure.HandedOver(refund, Optional.of(b))));
        assertThat(coalescer.followers(CacheFixture.key(other))).containsExactly(updated);
    }

    @Test
    void shouldLetAFollowerUpdatedWithOtherContentLeaveTheGroup() {
        arrive(a);
        arrive(b);
        arrive(c);
        WorkItem updated = fixture.ticket("B", "Login", "Cannot sign in");

        Arrival arrival = arrive(updated);

        assertThat(arrival).isEqualTo(new Arrival.Lead(true, new Departure.Left(refund, b)));
        assertThat(coalescer.followers(refund)).containsExactly(c);
        assertThat(coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers())
                .as("B is answered for its new content only").containsExactly(c);
        assertThat(coalescer.membership("B")).contains(Membership.leader(CacheFixture.key(updated)));
    }

    @Test
    void shouldChangeNothingForAnIdenticalRepublishOfAFollower() {
        arrive(a);
        arrive(b);
        WorkItem again = fixture.ticket("B", "Refund", "I was charged twice");

        assertThat(arrive(again)).isEqualTo(new Arrival.Join("A", true, Departure.NONE));
        assertThat(coalescer.followers(refund)).containsExactly(b);
    }

    @Test
    void shouldTakeTheGroupOverWhenAFollowerIsRepublishedMoreUrgent() {
        arrive(a);
        arrive(b);
        WorkItem urgent = fixture.ticket("B", "Refund", "I was charged twice", Priority.INTERACTIVE);

        assertThat(arrive(urgent)).isEqualTo(new Arrival.Lead(true, new Departure.Left(refund, b)));
        assertThat(coalescer.leaderOf(refund)).contains("B");
        assertThat(coalescer.membership("A")).as("the standard leader goes on alone").isEmpty();
    }

    @Test
    void shouldKeepTheLeaderLeadingWhenItsRetryComesBack() {
        arrive(a);
        arrive(b);

        Arrival back = coalescer.onArrival(CacheFixture.retried(a), refund, true, NOW + 5_000);

        assertThat(back).isEqualTo(new Arrival.Lead(false, Departure.NONE));
        assertThat(coalescer.leaderOf(refund)).contains("A");
        assertThat(coalescer.followers(refund)).as("not a follower of itself").containsExactly(b);
        assertThat(coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers()).containsExactly(b);
    }

    @Test
    void shouldPassAStaleRetryOfContentTheLeaderNoLongerHas() {
        arrive(a);
        arrive(b);
        WorkItem updated = fixture.ticket("A", "Login", "Cannot sign in");
        arrive(updated);

        assertThat(coalescer.onArrival(CacheFixture.retried(a), refund, true, NOW)).isEqualTo(new Arrival.Pass());
        assertThat(coalescer.leaderOf(refund)).contains("B");
        assertThat(coalescer.membership("A")).contains(Membership.leader(CacheFixture.key(updated)));
    }

    @Test
    void shouldPassARetryThatNoGroupKnows() {
        assertThat(coalescer.onArrival(CacheFixture.retried(a), refund, true, NOW)).isEqualTo(new Arrival.Pass());
        assertThat(coalescer.leaderOf(refund)).isEmpty();
    }

    @Test
    void shouldNotJoinOrHitATicketTheDispatcherHoldsThatNoGroupKnows() {
        arrive(a);
        assertThat(coalescer.onArrival(b, refund, true, NOW)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(coalescer.followers(refund)).isEmpty();

        coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW);
        assertThat(coalescer.onArrival(c, refund, true, NOW)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
    }

    @Test
    void shouldAnswerFollowersWhenAHolderOutsideTheGroupIsAnswered() {
        arrive(a);
        coalescer.onArrival(b, refund, true, NOW);
        arrive(c);

        Answered byB = coalescer.onAnswered(refund, "B", CacheFixture.answer("billing", "low"), NOW);

        assertThat(byB.followers()).containsExactly(c);
        assertThat(coalescer.leaderOf(refund)).as("A is still held and leads").contains("A");
        assertThat(coalescer.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers()).isEmpty();
        assertThat(coalescer.leaderOf(refund)).isEmpty();
    }

    @Test
    void shouldLeaveTheGroupWhenCancelled() {
        arrive(a);
        arrive(b);
        arrive(c);

        assertThat(coalescer.leave("C")).isEqualTo(new Departure.Left(refund, c));
        assertThat(coalescer.leave("A")).isEqualTo(new Departure.HandedOver(refund, Optional.of(b)));
        assertThat(coalescer.leave("nobody")).isEqualTo(Departure.NONE);
        assertThat(coalescer.followers(refund)).isEmpty();
        assertThat(coalescer.leaderOf(refund)).contains("B");
    }

    @Test
    void shouldNeitherCoalesceNorCacheWhenTheTtlIsZero() {
        Coalescer off = fixture.coalescer(Duration.ZERO);

        assertThat(off.onArrival(a, refund, false, NOW)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(off.onArrival(b, refund, false, NOW)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(off.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers()).isEmpty();
        assertThat(off.onArrival(c, refund, false, NOW)).isEqualTo(new Arrival.Lead(true, Departure.NONE));
        assertThat(fixture.entries(CacheStores.MEMBERS) + fixture.entries(CacheStores.GROUPS) + fixture.entries(CacheStores.ANSWERS))
                .isZero();
    }

    @Test
    void shouldStillServeGroupsFormedBeforeTheCacheWasTurnedOff() {
        arrive(a);
        arrive(b);

        Coalescer off = fixture.coalescer(Duration.ZERO);

        assertThat(off.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers()).containsExactly(b);
    }

    @Test
    void shouldCarryOnThroughANewAdapterOverTheSameStores() {
        arrive(a);
        arrive(b);
        coalescer.onAnswered(CacheFixture.key(other), "Y", CacheFixture.answer("account", "medium"), NOW);

        Coalescer restarted = fixture.coalescer();

        assertThat(restarted.leaderOf(refund)).contains("A");
        assertThat(restarted.onArrival(c, refund, false, NOW)).isEqualTo(new Arrival.Join("A", false, Departure.NONE));
        assertThat(restarted.onArrival(other, CacheFixture.key(other), false, NOW)).isInstanceOf(Arrival.Hit.class);
        List<WorkItem> answered = restarted.onAnswered(refund, "A", CacheFixture.answer("billing", "low"), NOW).followers();
        assertThat(answered).containsExactly(b, c);
        assertThat(answered.get(0).original()).isEqualTo(b.original());
    }
}
