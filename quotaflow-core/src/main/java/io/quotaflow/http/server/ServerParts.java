package io.quotaflow.http.server;

import io.quotaflow.settings.HttpSettings;
import io.quotaflow.status.HttpAccess;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The parts a {@link StatusServer} is built of: Jetty's request threads, the connector (plain, or TLS
 * whose identity reloads in place), and the bounded pools endpoints run on.
 */
final class ServerParts {

    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    /** Jetty's default, less what a ticket id may need: an encoded {@code /}, {@code %}, {@code .} or empty segment. */
    private static final UriCompliance URIS = UriCompliance.DEFAULT.with("quotaflow-ticket-ids",
            UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR, UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING,
            UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT, UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT);

    private ServerParts() {
    }

    static QueuedThreadPool requestThreads() {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("quotaflow-http");
        threads.setDaemon(true);
        return threads;
    }

    static ServerConnector connector(Server server, HttpSettings http, HttpAccess access) {
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        config.setUriCompliance(URIS);
        HttpConnectionFactory plain = new HttpConnectionFactory(config);
        if (access.tls().isEmpty()) {
            return new ServerConnector(server, 1, 1, plain);
        }
        // peers reach an instance by its advertised host name or address: no SNI host check
        config.addCustomizer(new SecureRequestCustomizer(false));
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setSslContext(access.tls().get().serverContext());
        access.onTls(identity -> reload(tls, identity));
        return new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, plain.getProtocol()), plain);
    }

    /** New connections are served with {@code identity}; open ones keep theirs. */
    private static void reload(SslContextFactory.Server tls, io.quotaflow.settings.TlsIdentity identity) {
        try {
            tls.reload(f -> f.setSslContext(identity.serverContext()));
        } catch (Exception e) {
            LOG.warn("the reloaded TLS identity could not be put in force; the one before serves on: {}", e.toString());
        }
    }

    static ExecutorService pool(String name, int threads, int queue) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
