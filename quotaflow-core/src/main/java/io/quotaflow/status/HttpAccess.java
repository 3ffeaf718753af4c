package io.quotaflow.status;

import io.quotaflow.settings.AccessTokens;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.TlsIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The HTTP API's credentials as their files hold them now: the tokens ({@code http.tokens-file}, with
 * {@code http.auth-token-file}'s as an operator's) and the TLS identity ({@code http.tls.*}). Each
 * {@link #check()} compares every file's modification time and size with the last read and reads the
 * changed ones again; one that does not parse (a rotation half-written) leaves what was read before
 * in force and is logged, without its content, until a later check reads it whole. The checks run
 * every {@link #POLL} on one thread of their own ({@link #watch()}), never on a request thread.
 * Thread-safe; what it holds is bounded by {@link AccessTokens}.
 */
public final class HttpAccess implements AutoCloseable {

    /** How often the files are looked at. */
    public static final Duration POLL = Duration.ofSeconds(5);

    private static final Logger LOG = LoggerFactory.getLogger(HttpAccess.class);

    private record Stamp(long modified, long size) {
    }

    private final AccessTokens fixed;
    private final Path tokensFile;
    private volatile AccessTokens tokens;
    private volatile TlsIdentity tls;
    private final List<Consumer<TlsIdentity>> tlsListeners = new CopyOnWriteArrayList<>();
    private final Map<Path, Stamp> stamps = new HashMap<>();
    private ScheduledExecutorService poller;

    private HttpAccess(AccessTokens fixed, Path tokensFile, TlsIdentity tls) {
        this.fixed = fixed;
        this.tokensFile = tokensFile;
        this.tls = tls;
        this.tokens = tokensFile == null ? fixed : fixed.and(AccessTokens.read(tokensFile));
        for (Path file : files()) {
            stamps.put(file, stamp(file));
        }
    }

    /** The credentials {@code http} names, read now; an {@link IllegalArgumentException} if a file is wrong. */
    public static HttpAccess of(HttpSettings http) {
        AccessTokens operator = http.token().map(AccessTokens::operator).orElse(AccessTokens.none());
        return new HttpAccess(operator, http.tokens().orElse(null), http.identity().orElse(null));
    }

    /** Checks the files every {@link #POLL} until {@link #close()}; this object. */
    public synchronized HttpAccess watch() {
        if (poller == null && !files().isEmpty()) {
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "quotaflow-http-reload");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::check, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
        }
        return this;
    }

    public AccessTokens tokens() {
        return tokens;
    }

    public Optional<TlsIdentity> tls() {
        return Optional.ofNullable(tls);
    }

    /** Calls {@code listener} with each identity a check reads anew (the server's certificate, the peers' trust). */
    public void onTls(Consumer<TlsIdentity> listener) {
        tlsListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Reads again what changed since the last check; whether anything was read anew. */
    public synchronized boolean check() {
        boolean reloaded = false;
        if (tokensFile != null && changed(List.of(tokensFile))) {
            try {
                tokens = fixed.and(AccessTokens.read(tokensFile));
                LOG.info("http.tokens-file read again: {} tokens", tokens.size());
                reloaded = true;
            } catch (IllegalArgumentException e) {
                LOG.warn("http.tokens-file changed but cannot be used; the tokens read before stay in force: {}", e.getMessage());
            }
        }
        if (tls != null && changed(tls.files())) {
            try {
                TlsIdentity next = tls.reload();
                tls = next;
                tlsListeners.forEach(l -> l.accept(next));
                LOG.info("TLS identity read again: {}", next);
                reloaded = true;
            } catch (RuntimeException e) {
                LOG.warn("a TLS file changed but cannot be used; the identity read before stays in force: {}", e.getMessage());
            }
        }
        return reloaded;
    }

    /** Whether any of {@code files} differs from its last stamp; the stamps are updated either way. */
    private boolean changed(List<Path> files) {
        boolean changed = false;
        for (Path file : files) {
            Stamp now = stamp(file);
            if (!now.equals(stamps.put(file, now))) {
                changed = true;
            }
        }
        return changed;
    }

    private List<Path> files() {
        List<Path> files = new ArrayList<>();
        if (tokensFile != null) {
            files.add(tokensFile);
        }
        if (tls != null) {
            files.addAll(tls.files());
        }
        return files;
    }

    private static Stamp stamp(Path file) {
        try {
            return new Stamp(Files.getLastModifiedTime(file).toMillis(), Files.size(file));
        } catch (IOException e) {
            // gone for a moment (a Secret's files are swapped by a link): a later check sees the new one
            return new Stamp(-1, -1);
        }
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
