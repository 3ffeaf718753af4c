package io.quotaflow.settings;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How the instance's HTTP endpoints are guarded and timed (docs/operations.md, "HTTP endpoints").
 *
 * @param authToken      the bearer token {@code /status} and {@code /tickets/{id}} require and peer
 *                       forwarding sends ({@code http.auth-token-file}); null: no token
 * @param tls            the key and certificates to serve HTTPS with ({@code http.tls.*}); null: plain HTTP
 * @param idleTimeout    a connection that neither sends nor reads for this long is closed ({@code http.idle-timeout-ms})
 * @param forwardTimeout how long {@code GET /tickets/{id}} waits for the other instances ({@code http.forward-timeout-ms})
 */
public record HttpSettings(Secret authToken, TlsIdentity tls, Duration idleTimeout, Duration forwardTimeout) {

    /** {@code http.idle-timeout-ms}'s default. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(10);

    /** {@code http.forward-timeout-ms}'s default. */
    public static final Duration DEFAULT_FORWARD_TIMEOUT = Duration.ofSeconds(2);

    /** Plain HTTP, no token, the default timeouts. */
    public static final HttpSettings DEFAULT = new HttpSettings(null, null, DEFAULT_IDLE_TIMEOUT, DEFAULT_FORWARD_TIMEOUT);

    public HttpSettings {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(forwardTimeout, "forwardTimeout");
        QuotaSettings.require(idleTimeout.toMillis() >= 100, "http.idle-timeout-ms must be at least 100");
        QuotaSettings.require(forwardTimeout.toMillis() >= 100, "http.forward-timeout-ms must be at least 100");
    }

    /** These settings with {@code token} required on {@code /status} and {@code /tickets/{id}}. */
    public HttpSettings withAuthToken(Secret token) {
        return new HttpSettings(token, tls, idleTimeout, forwardTimeout);
    }

    /** These settings serving HTTPS with {@code identity}. */
    public HttpSettings withTls(TlsIdentity identity) {
        return new HttpSettings(authToken, identity, idleTimeout, forwardTimeout);
    }

    public Optional<Secret> token() {
        return Optional.ofNullable(authToken);
    }

    public Optional<TlsIdentity> identity() {
        return Optional.ofNullable(tls);
    }

    /** {@code https} when TLS is on, else {@code http}: the scheme of this instance and of its peers. */
    public String scheme() {
        return tls == null ? "http" : "https";
    }
}
