package io.quotaflow.settings;

import java.nio.file.Path;
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
 * @param advertisedHost the host name the other instances forward to ({@code http.advertised-host}); null: derived
 *                       from {@code http.bind} (the bind address, or this host's name for a wildcard)
 * @param tokensFile     the file of {@code TOKEN TENANT} lines ({@code http.tokens-file}, {@link AccessTokens}), read
 *                       at start and again when it changes; null: none
 */
public record HttpSettings(Secret authToken, TlsIdentity tls, Duration idleTimeout, Duration forwardTimeout, String advertisedHost,
                           Path tokensFile) {

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
        QuotaSettings.require(advertisedHost == null || advertisedHost.matches("[A-Za-z0-9.:\\[\\]%_-]+"),
                "http.advertised-host must be a host name or an IP address, got '" + advertisedHost + "'");
    }

    /** Settings without a tokens file. */
    public HttpSettings(Secret authToken, TlsIdentity tls, Duration idleTimeout, Duration forwardTimeout, String advertisedHost) {
        this(authToken, tls, idleTimeout, forwardTimeout, advertisedHost, null);
    }

    /** Settings whose advertised host is derived from the bind address. */
    public HttpSettings(Secret authToken, TlsIdentity tls, Duration idleTimeout, Duration forwardTimeout) {
        this(authToken, tls, idleTimeout, forwardTimeout, null, null);
    }

    /** These settings with {@code token} required on {@code /status} and {@code /tickets/{id}}. */
    public HttpSettings withAuthToken(Secret token) {
        return new HttpSettings(token, tls, idleTimeout, forwardTimeout, advertisedHost, tokensFile);
    }

    /** These settings serving HTTPS with {@code identity}. */
    public HttpSettings withTls(TlsIdentity identity) {
        return new HttpSettings(authToken, identity, idleTimeout, forwardTimeout, advertisedHost, tokensFile);
    }

    /** These settings advertising {@code host} to the other instances (e.g. a pod's DNS name). */
    public HttpSettings withAdvertisedHost(String host) {
        return new HttpSettings(authToken, tls, idleTimeout, forwardTimeout, host, tokensFile);
    }

    /** These settings reading per-tenant tokens from {@code file} ({@code http.tokens-file}). */
    public HttpSettings withTokensFile(Path file) {
        return new HttpSettings(authToken, tls, idleTimeout, forwardTimeout, advertisedHost, file);
    }

    /** The tokens file, if any. */
    public Optional<Path> tokens() {
        return Optional.ofNullable(tokensFile);
    }

    /** The configured host name the other instances forward to, if any ({@code http.advertised-host}). */
    public Optional<String> advertised() {
        return Optional.ofNullable(advertisedHost);
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
