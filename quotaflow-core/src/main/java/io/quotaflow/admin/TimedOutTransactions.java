package io.quotaflow.admin;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Ends the transactions a dead instance of this application left open as soon as they have timed
 * out, instead of at the transaction coordinator's next scan for timed-out transactions (every
 * 10 s by default, {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}, a broker
 * setting). Under exactly-once the open transaction holds the dead instance's changelogs, so the
 * standby that takes its tasks over cannot finish restoring, and its quota scopes stay idle, until
 * the transaction is gone: its timeout after it began ({@code instance.transaction-timeout-ms}, 5 s),
 * and then up to one scan interval more.
 *
 * <p>What it ends is what the coordinator would abort anyway, only earlier: transactions of this
 * application's Kafka Streams producers ({@code <application.id>-<process UUID>-<thread>}; not a
 * {@code dlq replay}'s) still ongoing {@link #MARGIN} past their own timeout. How long a transaction
 * has been open is the coordinator's own measure ({@link ListTransactionsOptions#filterOnDuration},
 * KIP-994, brokers from Kafka 3.8): this host's clock is never compared with the coordinator's, so
 * a host whose clock is ahead (a resumed VM, an NTP step) ends nothing a live producer still holds.
 * A live producer's transaction lasts a commit interval; one past its timeout is already lost to it.
 * It ends them with {@link Admin#fenceProducers} (the coordinator aborts the transaction and bumps the
 * producer's epoch), which needs the rights the application's producers already have (write on their
 * transactional ids) plus describe; a cluster that refuses, or whose brokers do not measure durations
 * ({@link Sweep.Status#UNSUPPORTED}), is left to its own scan.
 */
public final class TimedOutTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(TimedOutTransactions.class);
    /** How far past its own timeout a transaction must be, by the coordinator's clock, before it is ended. */
    static final Duration MARGIN = Duration.ofSeconds(1);

    /**
     * The transaction coordinator's answers the watch acts on; {@link #of(Admin, Duration)} asks the cluster.
     * Every duration is the coordinator's: nothing here reads this host's clock.
     */
    interface Coordinator {

        /** The ids of the transactions ongoing for longer than {@code durationMs}, as the coordinator measures it. */
        List<String> ongoingLongerThan(long durationMs) throws ExecutionException, InterruptedException, TimeoutException;

        /** The coordinator's description of each of {@code ids}. */
        Map<String, TransactionDescription> describe(Collection<String> ids)
                throws ExecutionException, InterruptedException, TimeoutException;

        /** Fences the producers of {@code ids}, which aborts their open transactions. */
        void fence(Collection<String> ids) throws ExecutionException, InterruptedException, TimeoutException;

        static Coordinator of(Admin admin, Duration callTimeout) {
            long ms = callTimeout.toMillis();
            return new Coordinator() {
                @Override
                public List<String> ongoingLongerThan(long durationMs) throws ExecutionException, InterruptedException, TimeoutException {
                    return admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING))
                                    .filterOnDuration(durationMs)).all().get(ms, TimeUnit.MILLISECONDS).stream()
                            .map(TransactionListing::transactionalId).toList();
                }

                @Override
                public Map<String, TransactionDescription> describe(Collection<String> ids)
                        throws ExecutionException, InterruptedException, TimeoutException {
                    return admin.describeTransactions(ids).all().get(ms, TimeUnit.MILLISECONDS);
                }

                @Override
                public void fence(Collection<String> ids) throws ExecutionException, InterruptedException, TimeoutException {
                    admin.fenceProducers(ids).all().get(ms, TimeUnit.MILLISECONDS);
                }
            };
        }
    }

    /**
     * What one look for timed-out transactions did.
     *
     * @param status whether it could look
     * @param ended  the transactional ids it fenced (sorted; empty unless {@link Status#LOOKED})
     */
    public record Sweep(Status status, List<String> ended) {

        /** Whether the look could be made. */
        public enum Status {
            /** The coordinators answered; {@link #ended} is what was past its timeout. */
            LOOKED,
            /** The brokers do not measure how long a transaction has been open (ListTransactions v1, Kafka 3.8): nothing ended. */
            UNSUPPORTED,
            /** A request failed or timed out: nothing ended this time (the coordinator's own scan still runs). */
            FAILED
        }

        public Sweep {
            Objects.requireNonNull(status, "status");
            ended = List.copyOf(ended);
        }

        static Sweep of(Status status) {
            return new Sweep(status, List.of());
        }
    }

    private final Coordinator coordinator;
    /** Kafka Streams' exactly-once producers: {@code <application.id>-<process UUID>-<thread index>}. */
    private final Pattern streamsProducer;

    public TimedOutTransactions(Admin admin, String applicationId, Duration callTimeout) {
        this(Coordinator.of(admin, callTimeout), applicationId);
    }

    TimedOutTransactions(Coordinator coordinator, String applicationId) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.streamsProducer = Pattern.compile(Pattern.quote(applicationId) + "-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-[0-9]+");
    }

    /**
     * Ends this application's transactions that the coordinator has seen ongoing for longer than their
     * own timeout plus {@link #MARGIN}. Blocks for a few admin calls (usually one: a live producer's
     * transaction is never a second old): never on a stream thread.
     */
    public Sweep abortTimedOut() throws InterruptedException {
        try {
            // candidates: ours, open a margin's length already (a live producer's transaction lasts a commit interval)
            List<String> candidates = ours(coordinator.ongoingLongerThan(MARGIN.toMillis()));
            if (candidates.isEmpty()) {
                return Sweep.of(Sweep.Status.LOOKED);
            }
            List<String> due = due(coordinator.describe(candidates));
            if (!due.isEmpty()) {
                coordinator.fence(due);
                LOG.info("ended {} transaction(s) left open past their timeout by an instance that is gone: {}", due.size(), due);
            }
            return new Sweep(Sweep.Status.LOOKED, due);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnsupportedVersionException) {
                return Sweep.of(Sweep.Status.UNSUPPORTED);
            }
            LOG.debug("could not look for timed-out transactions (the coordinator's own scan will end them)", e);
            return Sweep.of(Sweep.Status.FAILED);
        } catch (TimeoutException e) {
            LOG.debug("could not look for timed-out transactions (the coordinator's own scan will end them)", e);
            return Sweep.of(Sweep.Status.FAILED);
        }
    }

    private List<String> ours(Collection<String> ids) {
        return ids.stream().filter(id -> streamsProducer.matcher(id).matches()).sorted().toList();
    }

    /**
     * Of {@code described}, the ids still ongoing past their own timeout plus {@link #MARGIN} by the
     * coordinator's clock: one listing by duration for each timeout among them (the producers of one
     * application share theirs, so usually one).
     */
    private List<String> due(Map<String, TransactionDescription> described)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<Long, Set<String>> byTimeout = byTimeout(described);
        Set<String> due = new TreeSet<>();
        for (Map.Entry<Long, Set<String>> e : byTimeout.entrySet()) {
            Set<String> longer = new HashSet<>(coordinator.ongoingLongerThan(e.getKey() + MARGIN.toMillis()));
            e.getValue().stream().filter(longer::contains).forEach(due::add);
        }
        return new ArrayList<>(due);
    }

    /** The ongoing ones of {@code described}, grouped by their own timeout (ms). */
    static Map<Long, Set<String>> byTimeout(Map<String, TransactionDescription> described) {
        Map<Long, Set<String>> byTimeout = new TreeMap<>();
        described.forEach((id, d) -> {
            if (d.state() == TransactionState.ONGOING) {
                byTimeout.computeIfAbsent(d.transactionTimeoutMs(), t -> new TreeSet<>()).add(id);
            }
        });
        return byTimeout;
    }

    /**
     * Starts a watch for the application {@code applicationId}: once a second within
     * {@link Watch#AFTER_REBALANCE} of a rebalance (an instance died, or joined; told by
     * {@link Watch#stateChanged}), ends what {@link #abortTimedOut} finds, on a daemon thread of its
     * own, never a stream thread.
     */
    public static Watch watch(String bootstrapServers, Map<String, String> kafka, String applicationId) {
        Admin admin = KafkaClients.admin(bootstrapServers, kafka);
        return new Watch(new TimedOutTransactions(admin, applicationId, Watch.CALL_TIMEOUT), () -> admin.close(Duration.ofSeconds(5)),
                Time.SYSTEM, true);
    }

    /** A running watch ({@link #watch}); closing it stops it and its admin client. */
    public static final class Watch implements AutoCloseable {

        /**
         * How long after a rebalance began the watch keeps looking: the moved tasks restore (in Kafka
         * Streams' state updater, while the application may already say RUNNING) until the dead
         * instance's transaction has ended, at most its timeout after the rebalance.
         */
        static final Duration AFTER_REBALANCE = Duration.ofSeconds(30);
        static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

        private final TimedOutTransactions transactions;
        private final Runnable closeClient;
        /** Only for how long ago the last rebalance began (its monotonic clock): never compared with the coordinator's. */
        private final Time time;
        private final ScheduledExecutorService executor;
        /** When the application last went REBALANCING ({@link Time#nanoseconds}); null: never. */
        private volatile Long rebalancedAtNanos;
        private volatile boolean unsupportedSaid;

        Watch(TimedOutTransactions transactions, Runnable closeClient, Time time, boolean scheduled) {
            this.transactions = transactions;
            this.closeClient = closeClient;
            this.time = time;
            this.executor = scheduled ? Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "quotaflow-transaction-watch");
                t.setDaemon(true);
                return t;
            }) : null;
            if (executor != null) {
                executor.scheduleWithFixedDelay(this::tickQuietly, 1, 1, TimeUnit.SECONDS);
            }
        }

        /** The application's state listener: a rebalance opens the watch for {@link #AFTER_REBALANCE}. */
        public void stateChanged(KafkaStreams.State state) {
            if (state == KafkaStreams.State.REBALANCING) {
                rebalancedAtNanos = time.nanoseconds();
            }
        }

        /** One look, if a rebalance began within {@link #AFTER_REBALANCE}; what it did ({@code null}: not open). */
        Sweep tick() throws InterruptedException {
            Long since = rebalancedAtNanos;
            if (since == null || time.nanoseconds() - since > AFTER_REBALANCE.toNanos()) {
                return null;
            }
            Sweep sweep = transactions.abortTimedOut();
            if (sweep.status() == Sweep.Status.UNSUPPORTED && !unsupportedSaid) {
                unsupportedSaid = true;
                LOG.warn("the brokers do not report how long a transaction has been open (ListTransactions v1, Kafka 3.8+): "
                        + "a dead instance's transactions end at the coordinator's own scan for timed-out transactions");
            }
            return sweep;
        }

        private void tickQuietly() {
            try {
                tick();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.debug("transaction watch", e);
            }
        }

        @Override
        public void close() {
            if (executor != null) {
                executor.shutdownNow();
            }
            closeClient.run();
        }
    }
}
