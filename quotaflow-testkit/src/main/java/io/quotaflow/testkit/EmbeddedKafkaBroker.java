package io.quotaflow.testkit;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;

/**
 * A single-node Apache Kafka broker running in KRaft combined mode
 * ({@code process.roles=broker,controller}) inside the current JVM.
 *
 * <p>Meant for local development ({@code quotaflow broker}, {@code quotaflow demo}) and
 * integration tests, not for production: every replication factor is 1 and the thread pools
 * are small. Transactions (and therefore Kafka Streams {@code exactly_once_v2}) are supported.
 *
 * <p>The broker listens on {@code localhost:PORT} (plaintext, or SASL/PLAIN with ACLs enforced when
 * started by {@link #startWithSaslUsers}); the KRaft controller listens on a second, freely chosen
 * localhost port. {@link #start()} returns only once the broker
 * answers an Admin {@code describeCluster} request.
 *
 * <p>With a data directory given, the directory is formatted on first use only and kept on
 * {@link #close()}, so topics and records survive a restart. Without one, a temporary
 * directory is used and deleted on close. A data directory belongs to the broker alone:
 * Kafka treats its sub-directories as partition logs.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    /**
     * Broker settings under which the transaction coordinator's own scan for timed-out transactions
     * waits an hour (its default is 10 s): a test sees what the clients end, not what the scan ends.
     */
    public static final Map<String, String> SLOW_TRANSACTION_SCAN =
            Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "3600000");

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    static final int NODE_ID = 1;
    static final String CONTROLLER_LISTENER = "CONTROLLER";
    static final String BROKER_LISTENER = "PLAINTEXT";
    static final String HOST = "localhost";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    /** The client listener of a broker with SASL users ({@link #startWithSaslUsers}). */
    static final String SASL_LISTENER = "SASL_PLAINTEXT";
    /** The super user of a broker with SASL users: the broker itself, and the client that creates topics and ACLs. */
    public static final String SASL_ADMIN = "admin";

    private final KafkaRaftServer server;
    private final Path dataDir;
    private final boolean deleteOnClose;
    private final int port;
    private final int controllerPort;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The users and passwords of the SASL listener; empty for a plaintext broker. */
    private final Map<String, String> saslUsers;

    private EmbeddedKafkaBroker(KafkaRaftServer server, Path dataDir, boolean deleteOnClose, int port,
                                int controllerPort, Map<String, String> saslUsers) {
        this.server = server;
        this.dataDir = dataDir;
        this.deleteOnClose = deleteOnClose;
        this.port = port;
        this.controllerPort = controllerPort;
        this.saslUsers = saslUsers;
    }

    /** Starts a broker on a free port with a temporary data directory (deleted on close). */
    public static EmbeddedKafkaBroker start() {
        return start(0, null);
    }

    /**
     * Starts a broker.
     *
     * @param port      the client port on localhost; 0 picks a free port
     * @param dirOrNull the data directory, kept across restarts (formatted only when it has not
     *                  been yet); {@code null} for a temporary directory deleted on close
     * @return the running broker, ready to serve requests
     * @throws IllegalStateException when the broker cannot be formatted or started (port taken, ...)
     * @throws UncheckedIOException  when the data directory cannot be created
     */
    public static EmbeddedKafkaBroker start(int port, Path dirOrNull) {
        return start(port, dirOrNull, Map.of());
    }

    /**
     * Starts a broker as {@link #start(int, Path)} does, with {@code overrides} put over its
     * properties last (e.g. {@code group.streams.min.session.timeout.ms} for a benchmark that
     * measures the streams rebalance protocol with a shorter session than the broker's default).
     */
    public static EmbeddedKafkaBroker start(int port, Path dirOrNull, Map<String, String> overrides) {
        return start(port, dirOrNull, overrides, Map.of());
    }

    /**
     * Starts a broker on a free port with a temporary data directory whose client listener is
     * {@code SASL_PLAINTEXT} with mechanism {@code PLAIN} and these users (name to password), and
     * whose authorizer is KRaft's {@code StandardAuthorizer} with no access where no ACL allows it
     * ({@code allow.everyone.if.no.acl.found=false}). {@link #SASL_ADMIN} is added when missing
     * (password {@code admin-secret}): it is the super user, the broker's own identity on the
     * listener, and the one to create topics and ACLs with ({@link #saslClientProperties(String)}).
     * The controller listener stays plaintext, on localhost, its principal {@code ANONYMOUS} a super
     * user: the broker's own requests to its controller. A separate broker: the shared one of
     * {@link KafkaBrokerExtension} stays plaintext.
     */
    public static EmbeddedKafkaBroker startWithSaslUsers(Map<String, String> users) {
        java.util.Map<String, String> all = new java.util.TreeMap<>(users);
        all.putIfAbsent(SASL_ADMIN, "admin-secret");
        for (Map.Entry<String, String> u : all.entrySet()) {
            if (!u.getKey().matches("[A-Za-z0-9_-]+") || !u.getValue().matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("SASL user names and passwords are letters, digits, '_' or '-'");
            }
        }
        return start(0, null, Map.of(), Map.copyOf(all));
    }

    private static EmbeddedKafkaBroker start(int port, Path dirOrNull, Map<String, String> overrides,
                                             Map<String, String> saslUsers) {
        java.util.Objects.requireNonNull(overrides, "overrides");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        long startedAt = System.nanoTime();
        boolean temporary = dirOrNull == null;
        Path dir;
        try {
            dir = temporary
                    ? Files.createTempDirectory("quotaflow-kafka-")
                    : Files.createDirectories(dirOrNull.toAbsolutePath().normalize());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the broker data directory", e);
        }
        KafkaRaftServer server = null;
        try {
            if (port != 0) {
                requireFree(port);
            }
            int brokerPort = port == 0 ? freePort() : port;
            int controllerPort = freePort(brokerPort);
            Properties props = BrokerSettings.brokerProperties(dir, brokerPort, controllerPort);
            if (!saslUsers.isEmpty()) {
                props.putAll(BrokerSettings.saslProperties(brokerPort, controllerPort, saslUsers));
            }
            if (!temporary) {
                // After an unclean stop (SIGKILL) the restarted controller keeps the old incarnation's
                // session alive and refuses the new registration (DuplicateBrokerRegistration) until it
                // times out: 9 s by default. Only a kept directory can be restarted, and only by this
                // same node, so a short session costs nothing there and brings a restart down by ~6 s.
                props.put("broker.heartbeat.interval.ms", "500");
                props.put("broker.session.timeout.ms", "3000");
            }
            props.putAll(overrides);
            formatIfNeeded(dir);
            KafkaConfig config = KafkaConfig.fromProps(props, false);
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            EmbeddedKafkaBroker broker =
                    new EmbeddedKafkaBroker(server, dir, temporary, brokerPort, controllerPort, saslUsers);
            broker.awaitReady();
            LOG.debug("Kafka broker ready at {} in {} ms (data in {})", broker.bootstrapServers(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt), dir);
            return broker;
        } catch (RuntimeException | Error e) {
            stopQuietly(server);
            if (temporary) {
                deleteRecursively(dir);
            }
            if (e instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("cannot start the embedded Kafka broker: " + e.getMessage(), e);
        }
    }

    /** The bootstrap servers string for clients, {@code localhost:PORT}. */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    /**
     * The client properties that log in to this broker's SASL listener as {@code user}
     * ({@code security.protocol}, {@code sasl.mechanism}, {@code sasl.jaas.config}); empty for a
     * plaintext broker.
     *
     * @throws IllegalArgumentException when the broker has no such user
     */
    public Map<String, String> saslClientProperties(String user) {
        if (saslUsers.isEmpty()) {
            return Map.of();
        }
        String password = saslUsers.get(user);
        if (password == null) {
            throw new IllegalArgumentException("no SASL user " + user + " on this broker");
        }
        return Map.of("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "PLAIN",
                "sasl.jaas.config", BrokerSettings.plainLogin(user, password, Map.of()));
    }

    /** The client port. */
    public int port() {
        return port;
    }

    /** The port of the KRaft controller listener (clients never need it). */
    public int controllerPort() {
        return controllerPort;
    }

    /** The data directory (log and metadata directory). */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Shuts the broker down cleanly and waits for it; deletes the data directory when it was a
     * temporary one. Calling it again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } finally {
            if (deleteOnClose) {
                deleteRecursively(dataDir);
            }
        }
    }

    private static void formatIfNeeded(Path dir) {
        if (Files.exists(dir.resolve("meta.properties"))) {
            return;
        }
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                .setClusterId(Uuid.randomUuid().toString())
                .setNodeId(NODE_ID)
                .setControllerListenerName(CONTROLLER_LISTENER)
                .setMetadataLogDirectory(dir.toString())
                .addDirectory(dir.toString())
                .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                .setIgnoreFormatted(true);
        try {
            formatter.run();
        } catch (Exception e) {
            throw new IllegalStateException("formatting the storage in " + dir + " failed: " + e, e);
        }
    }

    private void awaitReady() {
        Map<String, Object> config = new java.util.HashMap<>(saslClientProperties(SASL_ADMIN));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(config)) {
            Exception last = null;
            while (System.nanoTime() < deadline) {
                try {
                    int nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000))
                            .nodes().get(10, TimeUnit.SECONDS).size();
                    if (nodes > 0) {
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the broker", e);
                } catch (ExecutionException | TimeoutException e) {
                    last = e;
                }
                sleep(100);
            }
            throw new IllegalStateException("the broker did not become ready within "
                    + READY_TIMEOUT.toSeconds() + " s" + (last == null ? "" : ": " + last), last);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the broker", e);
        }
    }

    private static int freePort(int... avoid) {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                int candidate = socket.getLocalPort();
                boolean clash = false;
                for (int a : avoid) {
                    clash |= a == candidate;
                }
                if (!clash) {
                    return candidate;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free port", e);
            }
        }
        throw new IllegalStateException("cannot find a free port");
    }

    /** Fails fast, before Kafka logs a fatal start-up error, when the requested port is taken. */
    private static void requireFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " on localhost is already in use", e);
        }
    }

    private static void stopQuietly(KafkaRaftServer server) {
        if (server == null) {
            return;
        }
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("error while stopping a broker that failed to start", e);
        }
    }

    private static void deleteRecursively(Path root) {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            LOG.warn("cannot delete the broker directory {}: {}", root, e.toString());
        }
    }
}
