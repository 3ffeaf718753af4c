package io.quotaflow.testkit;

import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link EmbeddedKafkaBroker} shared by every test class of the test JVM, started lazily on
 * first use and closed when the test run ends (a root-store resource).
 *
 * <pre>{@code
 * @ExtendWith(KafkaBrokerExtension.class)
 * class SomethingIT {
 *     @Test
 *     void shouldDoX() {
 *         String bootstrap = KafkaBrokerExtension.bootstrapServers();
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>Test methods may also declare an {@link EmbeddedKafkaBroker} parameter. The broker is
 * shared: use unique topic and group names ({@link #uniqueName(String)}) and never close it.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KafkaBrokerExtension.class);

    private static EmbeddedKafkaBroker broker;

    @Override
    public void beforeAll(ExtensionContext context) {
        ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
        root.getOrComputeIfAbsent(SharedBroker.class, key -> {
            broker();
            return new SharedBroker();
        }, SharedBroker.class);
    }

    /** The shared broker, started on first call. */
    public static synchronized EmbeddedKafkaBroker broker() {
        return ensureStarted();
    }

    /** {@code localhost:PORT} of the shared broker, started on first call. */
    public static String bootstrapServers() {
        return broker().bootstrapServers();
    }

    /** A new Admin client for the shared broker; the caller closes it. */
    public static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
    }

    /** {@code prefix} plus a random suffix, for topics and groups that must not clash between tests. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == EmbeddedKafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return broker();
    }

    private static EmbeddedKafkaBroker ensureStarted() {
        if (broker == null) {
            EmbeddedKafkaBroker started = EmbeddedKafkaBroker.start();
            // covers static use without @ExtendWith; a no-op when the root store already closed it
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "kafka-broker-extension-close"));
            broker = started;
        }
        return broker;
    }

    /** Closes the shared broker when JUnit closes the root store at the end of the run. */
    private static final class SharedBroker implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            synchronized (KafkaBrokerExtension.class) {
                if (broker != null) {
                    broker.close();
                    broker = null;
                }
            }
        }
    }
}
