package io.quotaflow.cache;

import io.quotaflow.records.Priority;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Nothing lost, nothing answered twice: random runs of publishes (new, identical, updated),
 * answers, dead letters, cancellations, retries (current and stale), restarts and the cache
 * turned off and on, against a stand-in dispatcher that follows {@link Coalescer}'s contract. Every
 * ticket published and not cancelled gets exactly one outcome for its latest content.
 */
class CoalescingSimulationTest {

    private static final String[] IDS = {"T-1", "T-2", "T-3", "T-4", "T-5", "T-6", "T-7"};
    private static final String[][] TEXTS = {{"Refund", "charged twice"}, {"Refund", "charged  twice "}, {"Login", "cannot sign in"},
        {" Login", "cannot\nsign in"}, {"Parcel", "never arrived"}, {null, "never arrived"}};

    /** The dispatcher's side: what it holds (leaders and lone tickets) and what it owes. */
    private static final class Run {
        final CacheFixture fixture = new CacheFixture();
        final Random random;
        final Map<String, WorkItem> held = new LinkedHashMap<>();
        final Map<String, ContentKey> owed = new HashMap<>();
        final List<WorkItem> sent = new ArrayList<>();
        final List<String> log = new ArrayList<>();
        Coalescer coalescer = fixture.coalescer();
        long now = 1_700_000_000_000L;
        int outcomes;
        int hits;
        int joins;

        Run(long seed) {
            random = new Random(seed);
        }

        void publish() {
            String id = IDS[random.nextInt(IDS.length)];
            String[] text = TEXTS[random.nextInt(TEXTS.length)];
            WorkItem item = fixture.ticket(id, text[0], text[1], Priority.values()[random.nextInt(Priority.values().length)]);
            ContentKey key = CacheFixture.key(item);
            owed.put(id, key);
            Arrival arrival = coalescer.onArrival(item, key, held.containsKey(id), now);
            log.add(item.id() + "/" + item.priority() + "/" + key.hex().substring(0, 4) + " -> " + arrival);
            boolean leads = arrival instanceof Arrival.Lead;
            apply(arrival.departure(), id, leads);
            if (arrival instanceof Arrival.Hit hit) {
                hits++;
                assertThat(held).as("a hit must not be held too").doesNotContainKey(id);
                outcome(id, key, "hit " + hit.answer().category());
            } else if (arrival instanceof Arrival.Join join) {
                joins++;
                assertThat(held).as("a follower must not be held too").doesNotContainKey(id);
                assertThat(held).as("its leader is held").containsKey(join.leaderId());
                assertThat(held.get(join.leaderId()).priority()).as("never waits for a less urgent leader: %s joins %s; log %s", item, held.get(join.leaderId()), log)
                        .isLessThanOrEqualTo(item.priority());
            } else if (leads) {
                held.put(id, item);
            } else {
                fail("a fresh ticket was passed: " + arrival);
            }
        }

        void apply(Departure departure, String id, boolean leadsAgain) {
            if (departure instanceof Departure.HandedOver handed) {
                if (!leadsAgain) {
                    held.remove(id);
                }
                handed.newLeader().ifPresent(next -> {
                    assertThat(held).doesNotContainKey(next.id());
                    held.put(next.id(), next);
                });
            }
        }

        void answer() {
            WorkItem item = pickHeld();
            if (item == null) {
                return;
            }
            held.remove(item.id());
            sent.add(item);
            ContentKey key = CacheFixture.key(item);
            outcome(item.id(), key, "answered");
            for (WorkItem f : coalescer.onAnswered(key, item.id(), CacheFixture.answer("billing", "low"), now).followers()) {
                outcome(f.id(), CacheFixture.key(f), "answered with " + item.id());
            }
        }

        void deadLetter() {
            WorkItem item = pickHeld();
            if (item == null) {
                return;
            }
            held.remove(item.id());
            ContentKey key = CacheFixture.key(item);
            outcome(item.id(), key, "dead-lettered");
            for (WorkItem f : coalescer.onLeaderFailed(key, item.id())) {
                outcome(f.id(), CacheFixture.key(f), "dead-lettered with " + item.id());
            }
        }

        void cancel() {
            String id = IDS[random.nextInt(IDS.length)];
            apply(coalescer.leave(id), id, false);
            held.remove(id);
            owed.remove(id);
        }

        void retryComesBack() {
            WorkItem item = pickHeld();
            if (item == null) {
                return;
            }
            Arrival back = coalescer.onArrival(CacheFixture.retried(item), CacheFixture.key(item), true, now);
            assertThat(back).as("a held ticket's retry").isIn(new Arrival.Lead(false, Departure.NONE), new Arrival.Pass());
        }

        void staleRetryComesBack() {
            if (sent.isEmpty()) {
                return;
            }
            WorkItem old = sent.get(random.nextInt(sent.size()));
            WorkItem current = held.get(old.id());
            if (current != null && CacheFixture.key(current).equals(CacheFixture.key(old))) {
                return;
            }
            Arrival back = coalescer.onArrival(CacheFixture.retried(old), CacheFixture.key(old), current != null, now);
            // the ledger drops a stale retry; whatever the coalescer said, it must change nothing
            assertThat(back).isIn(new Arrival.Lead(false, Departure.NONE), new Arrival.Pass());
        }

        void restart() {
            coalescer = fixture.coalescer(random.nextInt(4) == 0 ? Duration.ZERO : CacheFixture.TTL);
        }

        void outcome(String id, ContentKey key, String how) {
            outcomes++;
            assertThat(owed).as("%s: %s was owed nothing (a second answer?)", how, id).containsKey(id);
            assertThat(owed.get(id)).as("%s: %s answered for content it no longer has", how, id).isEqualTo(key);
            owed.remove(id);
        }

        WorkItem pickHeld() {
            if (held.isEmpty()) {
                return null;
            }
            return new ArrayList<>(held.values()).get(random.nextInt(held.size()));
        }

        void step() {
            now += 1_000;
            int roll = random.nextInt(100);
            if (roll < 45) {
                publish();
            } else if (roll < 70) {
                answer();
            } else if (roll < 76) {
                deadLetter();
            } else if (roll < 82) {
                cancel();
            } else if (roll < 90) {
                retryComesBack();
            } else if (roll < 95) {
                staleRetryComesBack();
            } else if (roll < 98) {
                restart();
            } else {
                // every cached answer expires
                now += CacheFixture.TTL.toMillis();
            }
        }

        /** Every group's leader is held and at least as urgent as each follower; no follower is held. */
        void checkGroups() {
            KeyValueStore<String, Group> groups = fixture.store(CacheStores.GROUPS);
            try (KeyValueIterator<String, Group> it = groups.all()) {
                while (it.hasNext()) {
                    KeyValue<String, Group> g = it.next();
                    WorkItem leader = held.get(g.value.leaderId());
                    assertThat(leader).as("leader %s of a group is held", g.value.leaderId()).isNotNull();
                    assertThat(leader.priority()).isEqualTo(g.value.leaderPriority());
                    for (WorkItem f : coalescer.followers(new ContentKey(g.key))) {
                        assertThat(held).as("follower %s held too", f.id()).doesNotContainKey(f.id());
                        assertThat(f.priority()).as("%s waits for a less urgent leader", f.id()).isGreaterThanOrEqualTo(leader.priority());
                    }
                }
            }
        }

        void drain() {
            coalescer = fixture.coalescer();
            while (!held.isEmpty()) {
                answer();
            }
        }
    }

    @Test
    void shouldGiveEveryTicketExactlyOneOutcomeForItsLatestContent() {
        int outcomes = 0;
        int hits = 0;
        int joins = 0;
        for (long seed = 1; seed <= 40; seed++) {
            Run run = new Run(seed);
            for (int i = 0; i < 200; i++) {
                run.step();
                run.checkGroups();
            }
            run.drain();

            assertThat(run.owed).as("seed %d: tickets never answered (lost)", seed).isEmpty();
            assertThat(run.fixture.entries(CacheStores.FOLLOWERS)).as("seed %d: followers left", seed).isZero();
            assertThat(run.fixture.entries(CacheStores.GROUPS)).as("seed %d: groups left", seed).isZero();
            assertThat(run.fixture.entries(CacheStores.MEMBERS)).as("seed %d: memberships left", seed).isZero();
            outcomes += run.outcomes;
            hits += run.hits;
            joins += run.joins;
        }
        assertThat(hits).as("the runs exercise cache hits").isGreaterThan(1_000);
        assertThat(joins).as("the runs exercise coalescing").isGreaterThan(150);
        assertThat(outcomes).isGreaterThan(2_000);
    }
}
