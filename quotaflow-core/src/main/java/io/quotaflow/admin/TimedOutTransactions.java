package io.quotaflow.admin;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * {@code dlq replay}'s) still ongoing {@link #MARGIN} past their own timeout. A live producer's transaction lasts a commit interval; one past its timeout
 * is already lost to it. It ends them with {@link Admin#fenceProducers} (the coordinator aborts the
 * transaction and bumps the producer's epoch), which needs the rights the application's producers
 * already have (write on their transactional ids) plus describe; a cluster that refuses is left to
 * its own scan.
 */
public final class TimedOutTransactions {

    private static final Logger LOG = LoggerFactory.getLogger(TimedOutTransactions.class);
    /** How far past its own timeout a transaction must be: clock skew between here and the coordinator. */
    static final Duration MARGIN = Duration.ofSeconds(1);

    private final Admin admin;
    /** Kafka Streams' exactly-once producers: {@code <application.id>-<process UUID>-<thread index>}. */
    private final Pattern streamsProducer;
    private final Duration callTimeout;

    public TimedOutTransactions(Admin admin, String applicationId, Duration callTimeout) {
        this.admin = admin;
        this.streamsProducer = Pattern.compile(Pattern.quote(applicationId) + "-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}-[0-9]+");
        this.callTimeout = callTimeout;
    }

    /**
     * Ends this application's transactions that are past their timeout at {@code nowMs}; returns the
     * transactional ids it fenced. Blocks for up to three admin calls: never on a stream thread.
     */
    public List<String> abortTimedOut(long nowMs) throws InterruptedException {
        try {
            List<String> ours = admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                    .all().get(callTimeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                    .map(TransactionListing::transactionalId).filter(id -> streamsProducer.matcher(id).matches()).toList();
            if (ours.isEmpty()) {
                return List.of();
            }
            List<String> due = timedOut(admin.describeTransactions(ours).all().get(callTimeout.toMillis(), TimeUnit.MILLISECONDS), nowMs);
            if (!due.isEmpty()) {
                admin.fenceProducers(due).all().get(callTimeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.info("ended {} transaction(s) left open past their timeout by an instance that is gone: {}", due.size(), due);
            }
            return due;
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("could not look for timed-out transactions (the coordinator's own scan will end them)", e);
            return List.of();
        }
    }

    /**
     * Starts a watch for the application {@code applicationId}: once a second within
     * {@link Watch#AFTER_REBALANCE} of a rebalance (an instance died, or joined; told by
     * {@link Watch#stateChanged}), ends what {@link #abortTimedOut} finds, on a daemon thread of its
     * own, never a stream thread.
     */
    public static Watch watch(String bootstrapServers, Map<String, String> kafka, String applicationId) {
        return new Watch(KafkaClients.admin(bootstrapServers, kafka), applicationId);
    }

    /** A running watch ({@link #watch}); closing it stops it and its admin client. */
    public static final class Watch implements AutoCloseable {

        /**
         * How long after a rebalance began the watch keeps looking: the moved tasks restore (in Kafka
         * Streams' state updater, while the application may already say RUNNING) until the dead
         * instance's transaction has ended, at most its timeout after the rebalance.
         */
        static final Duration AFTER_REBALANCE = Duration.ofSeconds(30);
        private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);

        private final Admin admin;
        private final ScheduledExecutorService executor;
        /** When the application last went REBALANCING (epoch ms; 0: never). */
        private volatile long rebalancedAtMs;

        private Watch(Admin admin, String applicationId) {
            this.admin = admin;
            TimedOutTransactions transactions = new TimedOutTransactions(admin, applicationId, CALL_TIMEOUT);
            this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "quotaflow-transaction-watch");
                t.setDaemon(true);
                return t;
            });
            executor.scheduleWithFixedDelay(() -> {
                long now = System.currentTimeMillis();
                if (rebalancedAtMs > 0 && now - rebalancedAtMs <= AFTER_REBALANCE.toMillis()) {
                    try {
                        transactions.abortTimedOut(now);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        LOG.debug("transaction watch", e);
                    }
                }
            }, 1, 1, TimeUnit.SECONDS);
        }

        /** The application's state listener: a rebalance opens the watch for {@link #AFTER_REBALANCE}. */
        public void stateChanged(KafkaStreams.State state) {
            if (state == KafkaStreams.State.REBALANCING) {
                rebalancedAtMs = System.currentTimeMillis();
            }
        }

        @Override
        public void close() {
            executor.shutdownNow();
            admin.close(Duration.ofSeconds(5));
        }
    }

    /** The ids of {@code described} still ongoing {@link #MARGIN} past their own timeout at {@code nowMs}. */
    static List<String> timedOut(Map<String, TransactionDescription> described, long nowMs) {
        return described.entrySet().stream()
                .filter(e -> e.getValue().state() == TransactionState.ONGOING)
                .filter(e -> e.getValue().transactionStartTimeMs().isPresent()
                        && e.getValue().transactionStartTimeMs().getAsLong() + e.getValue().transactionTimeoutMs() + MARGIN.toMillis() <= nowMs)
                .map(Map.Entry::getKey).sorted().toList();
    }
}
