package io.quotaflow;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.admin.DispatchTopicCheck;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.http.server.StatusServer;
import io.quotaflow.metrics.ClientMetrics;
import io.quotaflow.metrics.ConsumerLag;
import io.quotaflow.metrics.KafkaCuratedMetrics;
import io.quotaflow.metrics.MeteredRoute;
import io.quotaflow.metrics.MetricsRegistry;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.metrics.ProcessMetrics;
import io.quotaflow.metrics.StreamsProbe;
import io.quotaflow.llm.ModelClient;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.provider.ObservedClient;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.provider.StartCheck;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.topology.QuotaflowTopology;
import org.apache.kafka.common.utils.Time;
import io.quotaflow.admin.TimedOutTransactions;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.HostInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * One running quotaflow instance: the Kafka Streams application, its model client, metrics and
 * status endpoints. Several instances with the same application id share the work and, through
 * quota-scope partitioning, the quota.
 */
public final class Pipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Pipeline.class);
    /** The instance's one clock: Kafka's adapter over the JVM's clock, handed to everything that reads time. */
    private static final Time TIME = Time.SYSTEM;

    private final KafkaStreams streams;
    private final ModelClients clients;
    private final PipelineMetrics metrics;
    private final PrometheusMeterRegistry registry;
    /** The Kafka clients' metrics the consumer lag gauge (and, when curated, the Kafka families) read; held here, gauges hold it weakly. */
    private final ClientMetrics clientMetrics = new ClientMetrics(TIME);
    private final ProcessMetrics processMetrics;
    private final StatusServer status;
    private final RouteStateBoard routeStates;
    private volatile StartCheck startCheck;
    /** Ends a dead instance's timed-out transactions after this one's rebalances ({@link TimedOutTransactions}). */
    private final TimedOutTransactions.Watch transactionWatch;
    /** Where the spans go; {@link io.quotaflow.tracing.Tracing#NOOP} when traces are off. */
    private final io.quotaflow.tracing.Tracing tracing;

    private Pipeline(QuotaflowConfig config, ModelClients clients, RouteStateBoard routeStates) {
        this.clients = clients;
        this.routeStates = routeStates;
        this.registry = MetricsRegistry.create(config.metrics());
        this.metrics = new PipelineMetrics(registry, MeteredRoute.all(config.dispatcher()), TIME, config.metrics().tenantLabels());
        this.processMetrics = ProcessMetrics.bindTo(registry);
        ConsumerLag.register(registry, consumedTopics(config), clientMetrics);
        if (config.metrics().kafka() == io.quotaflow.settings.MetricsSettings.KafkaMetrics.CURATED) {
            KafkaCuratedMetrics.register(registry, clientMetrics);
        }
        Properties properties = streamsProperties(config);
        properties.putAll(io.quotaflow.topology.StreamErrorHandlers.properties(metrics, config.topics()));
        // traces: an SDK only when an exporter is configured (docs/operations.md, "Traces")
        this.tracing = io.quotaflow.tracing.TracingSetup.start(config.metrics().traces(), TIME);
        metrics.spansDropped(tracing::spansDropped);
        Topology topology = QuotaflowTopology.build(config.dispatcher(), clients,
                new SplittableRandom(new SecureRandom().nextLong()), metrics, properties, TIME, routeStates, tracing);
        // the HTTP server binds first: its port is the application.server other instances forward to
        LateProbe late = new LateProbe();
        try {
            // one reading of the tokens and TLS files: the server answers with it, the forwarder asks with it
            io.quotaflow.status.HttpAccess access = io.quotaflow.status.HttpAccess.of(config.http());
            this.status = config.httpPort() >= 0 ? new StatusServer(config.httpBind(), config.httpPort(), registry, metrics, late,
                    TicketQueries.service(() -> late.streams, metrics.tickets(),
                            () -> new HostInfo(advertisedHost(config), httpPort()), config.http(), routeStates, access),
                    config.http(), routeStates, access) : null;
        } catch (IOException e) {
            processMetrics.close();
            tracing.close();
            throw new UncheckedIOException("cannot serve /metrics on " + config.httpBind() + ":" + config.httpPort(), e);
        }
        if (status != null) {
            properties.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedHost(config) + ":" + status.port());
        }
        // dispatchers read their backlog before intake takes in more (topology.IntakeHold); under the
        // streams rebalance protocol Kafka Streams makes its main consumer itself, so the hold cannot apply
        if (config.intakeHoldLag() > 0 && io.quotaflow.settings.GroupMembership.isStreamsProtocol(config.kafka().get("group.protocol"))) {
            LOG.info("intake.hold-dispatch-lag does not apply under group.protocol=streams: Kafka Streams makes its main consumer itself");
        }
        this.streams = new KafkaStreams(topology, properties, new io.quotaflow.topology.HoldingClientSupplier(intakeHold(config),
                metrics::intakeHeld));
        this.streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it", e);
            metrics.streamThreadFailed(e, TIME.milliseconds());
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        clientMetrics.watch(streams::metrics);
        this.transactionWatch = TimedOutTransactions.watch(config.bootstrapServers(), config.kafka(), config.applicationId());
        late.watch(streams, transactionWatch::stateChanged);
    }

    /** The topics the stream threads read: the input topics, retry, and the two dispatch topics. */
    static java.util.List<String> consumedTopics(QuotaflowConfig config) {
        java.util.List<String> topics = new java.util.ArrayList<>(config.topics().inputs());
        topics.addAll(DispatchTopics.dispatchTopics(config.applicationId()));
        return topics;
    }

    /** The host the other instances forward to: {@code http.advertised-host}, else derived from {@code http.bind}. */
    static String advertisedHost(QuotaflowConfig config) {
        return config.http().advertised().orElseGet(() -> TicketQueries.advertisedHost(config.httpBind()));
    }

    /** The health checks' view of the application, which exists only after the HTTP server is bound. */
    private static final class LateProbe implements StreamsProbe {
        private volatile StreamsProbe probe;
        private volatile KafkaStreams streams;

        void watch(KafkaStreams value, java.util.function.Consumer<KafkaStreams.State> onChange) {
            this.probe = StreamsProbe.watching(value, onChange);
            this.streams = value;
        }

        @Override
        public KafkaStreams.State state() {
            StreamsProbe p = probe;
            return p == null ? KafkaStreams.State.CREATED : p.state();
        }

        @Override
        public int aliveThreads() {
            StreamsProbe p = probe;
            return p == null ? -1 : p.aliveThreads();
        }

        @Override
        public boolean wasRunning() {
            StreamsProbe p = probe;
            return p != null && p.wasRunning();
        }
    }

    /**
     * Starts an instance calling the configured OpenAI-compatible endpoint, and checks every route in
     * the background ({@link StartCheck}: {@code GET /models}, no call); each route's state follows
     * that check, then every call's answer ({@link ObservedClient}).
     */
    public static Pipeline start(QuotaflowConfig config) {
        var routing = config.dispatcher().routing();
        RouteStateBoard board = new RouteStateBoard(routing.routes().keySet());
        ModelClients clients = ModelClients.perScope(route -> new ObservedClient(new OpenAiChatClient(route.model()),
                routing.routesOf(route.scope()).stream().map(RouteSettings::name).toList(), route.model().baseUrl(), board));
        Pipeline pipeline = start(config, clients, board);
        pipeline.startCheck = StartCheck.start(routing.routes().values(), board);
        return pipeline;
    }

    /** Starts an instance with the given model client for every route (tests, simulators); closes it with the pipeline. */
    public static Pipeline start(QuotaflowConfig config, ModelClient client) {
        return start(config, ModelClients.perScope(route -> client));
    }

    /**
     * Starts an instance with a model client per quota scope.
     *
     * @throws io.quotaflow.config.ConfigError the dispatch topic exists with another partition count than
     *                                         {@code dispatch.partitions} ({@link DispatchTopicCheck})
     */
    public static Pipeline start(QuotaflowConfig config, ModelClients clients) {
        return start(config, clients, new RouteStateBoard(config.dispatcher().routing().routes().keySet()));
    }

    private static Pipeline start(QuotaflowConfig config, ModelClients clients, RouteStateBoard board) {
        try {
            DispatchTopicCheck.verify(config.bootstrapServers(), config.kafka(), DispatchTopics.dispatchTopics(config.applicationId()),
                    config.dispatcher().dispatchPartitions(), config.dispatcher().routing().scopes());
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
        warnPlaintext(config);
        config.dispatcher().routing().routes().values().forEach(r -> LOG.info("{}", limitsLine(r)));
        Pipeline pipeline = new Pipeline(config, clients, board);
        preloadEncodings(config);
        pipeline.streams.start();
        return pipeline;
    }

    /**
     * Loads the routes' token encodings on a thread of their own while the streams join their group:
     * jtokkit reads an encoding's vocabulary (200,000 ranks for o200k_base) on first use, which would
     * otherwise be the first ticket's, on the stream thread (a second or more in a fresh JVM).
     */
    private static void preloadEncodings(QuotaflowConfig config) {
        java.util.Set<String> encodings = new java.util.TreeSet<>();
        config.dispatcher().routing().routes().values().forEach(r -> encodings.add(r.model().encoding()));
        Thread preload = new Thread(() -> encodings.forEach(e -> {
            try {
                io.quotaflow.tokens.TokenCounter.forEncoding(e).count("Hello, world");
            } catch (RuntimeException ex) {
                LOG.debug("token encoding {} not preloaded: {}", e, ex.toString()); // its first use says why
            }
        }), "quotaflow-encodings-preload");
        preload.setDaemon(true);
        preload.start();
    }

    /**
     * Once per route at start: {@code route default: 500 RPM (default), 20000 TPM (set); a set limit is a ceiling the
     * provider's headers may only lower, a default or auto one learns from them} (its name and limits; no key, no URL).
     */
    static String limitsLine(io.quotaflow.settings.RouteSettings route) {
        var q = route.quota();
        boolean set = q.limitsRequests() && !q.rpmOrigin().learnsUp() || q.limitsTokens() && !q.tpmOrigin().learnsUp();
        boolean learns = q.limitsRequests() && q.rpmOrigin().learnsUp() || q.limitsTokens() && q.tpmOrigin().learnsUp();
        String how = set ? "; a set limit is a ceiling the provider's headers may only lower" : "";
        if (learns) {
            how += set ? ", a default or auto one learns from them, up or down"
                    : "; a default or auto limit learns from the provider's headers, up or down";
        }
        return "route " + route.name() + ": " + q.describeLimits() + how;
    }

    /** Once per route at start: an {@code http://} base URL to another host sends the API key in the clear. */
    private static void warnPlaintext(QuotaflowConfig config) {
        for (io.quotaflow.settings.RouteSettings route : config.dispatcher().routing().routes().values()) {
            java.net.URI url = route.model().baseUrl();
            if ("http".equalsIgnoreCase(url.getScheme()) && !loopback(url.getHost())) {
                LOG.warn("route {} sends its API key unencrypted to {}: use https:// unless that network is trusted", route.name(),
                        io.quotaflow.settings.Redactor.url(url));
            }
        }
    }

    /** Whether {@code host} names this machine's loopback interface. */
    static boolean loopback(String host) {
        if (host == null) {
            return true;
        }
        String h = host.toLowerCase(java.util.Locale.ROOT);
        return h.equals("localhost") || h.endsWith(".localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
    }

    public static Properties streamsProperties(QuotaflowConfig config) {
        Properties p = new Properties();
        // a dead instance's scopes move after its session (6 s, not Kafka's 45 s) and once its open
        // transaction is aborted (5 s, not Kafka Streams' 10 s): docs/operations.md, "Failover"
        p.putAll(io.quotaflow.settings.GroupMembership.ofDefaults().applyTo(config.kafka()));
        // the RocksDB stores share one bounded block cache and memtable budget (docs/design.md, "Bounds");
        // a configuration from the loader carries state.memory-mb's, one built in code the default
        p.putAll(io.quotaflow.state.BoundedRocksDb.applyTo(config.kafka(), io.quotaflow.state.BoundedRocksDb.DEFAULT_MEMORY_MB));
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        p.remove(org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        if (config.instanceId() != null) {
            // static membership: a restarted instance takes its tasks back at once (Streams adds "-<thread>")
            p.put(org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, config.instanceId());
        }
        p.putIfAbsent(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.putIfAbsent(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "1");
        p.putIfAbsent(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
        p.putIfAbsent(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, "true");
        // Kafka Streams builds a second StreamsConfig for its partition assignor from the main consumer's
        // settings alone, where the switch above is missing, and warns at every start that it is off
        p.putIfAbsent(StreamsConfig.mainConsumerPrefix(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG), "true");
        // intake reads four topics per task; ordering across them does not matter (the dispatcher
        // orders by priority), so never hold a task back waiting for data on its other partitions
        p.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "-1");
        // interactive tickets are dated an hour early on their lane, so that a task takes them before
        // the other tickets waiting on the dispatch topic (topology.DispatchLanes); quotaflow's, not a setting
        p.put(StreamsConfig.DEFAULT_TIMESTAMP_EXTRACTOR_CLASS_CONFIG, io.quotaflow.topology.DispatchLanes.Timestamps.class.getName());
        // a stream thread takes in everything it polled before it polls again: 1,000 records (Kafka
        // Streams' default) are seconds of work on a cold JVM, during which an interactive ticket that
        // arrived meanwhile is not fetched, however early its lane dates it
        p.putIfAbsent(StreamsConfig.mainConsumerPrefix(org.apache.kafka.clients.consumer.ConsumerConfig.MAX_POLL_RECORDS_CONFIG), "100");
        p.putIfAbsent(StreamsConfig.mainConsumerPrefix(org.apache.kafka.clients.consumer.ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG),
                "65536");
        // answers arrive on HTTP threads and are drained by the punctuator: do not sit in poll()
        // for the default 100 ms while completions wait
        p.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, "20");
        return p;
    }

    /** The hold on intake of {@code config}: the dispatch topics are read first, the interactive input always. */
    static io.quotaflow.topology.IntakeHold intakeHold(QuotaflowConfig config) {
        return new io.quotaflow.topology.IntakeHold(java.util.Set.copyOf(DispatchTopics.dispatchTopics(config.applicationId())),
                java.util.Set.of(config.topics().input(io.quotaflow.records.Priority.INTERACTIVE)), config.intakeHoldLag());
    }

    /** Waits until the application is RUNNING; false on timeout or failure. */
    public boolean awaitRunning(Duration timeout) throws InterruptedException {
        long deadline = TIME.nanoseconds() + timeout.toNanos();
        while (TIME.nanoseconds() < deadline) {
            KafkaStreams.State s = streams.state();
            if (s == KafkaStreams.State.RUNNING) {
                return true;
            }
            if (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.NOT_RUNNING || s == KafkaStreams.State.PENDING_ERROR) {
                return false;
            }
            Thread.sleep(50);
        }
        return false;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public PipelineMetrics metrics() {
        return metrics;
    }

    /** This instance's record of route health ({@code "routeState"} in {@code /status} and ticket statuses; fallback choice). */
    public RouteStateBoard routeStates() {
        return routeStates;
    }

    /** The provider check started with the pipeline, or null (a pipeline given its model clients checks nothing). */
    public StartCheck startCheck() {
        return startCheck;
    }

    /** Port of the status server, or -1 when off. */
    public int httpPort() {
        return status == null ? -1 : status.port();
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(30));
    }

    /** Closes everything, the streams within {@code timeout}; whether the streams closed in time. */
    public boolean close(Duration timeout) {
        transactionWatch.close();
        // leave the group at once, so the quota scope's task moves now rather than after the session timeout
        boolean closed = streams.close(CloseOptions.timeout(timeout).withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        processMetrics.close();
        if (startCheck != null) {
            startCheck.close();
        }
        clients.close();
        if (status != null) {
            status.close();
        }
        registry.close();
        tracing.close();
        return closed;
    }
}
