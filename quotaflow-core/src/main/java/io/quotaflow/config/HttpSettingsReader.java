package io.quotaflow.config;

import io.quotaflow.settings.AccessTokens;
import io.quotaflow.settings.Keys;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TlsIdentity;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads {@code http.auth-token-file}, {@code http.tls.*}, {@code http.advertised-host} and the HTTP timeouts into
 * {@link HttpSettings}. The token's and the keystore password's files are never named by path in
 * an error (a user may have pasted the secret itself there); certificate and key files are.
 */
public final class HttpSettingsReader {

    /** The shortest token accepted: a guessable one guards nothing. */
    static final int MIN_TOKEN_LENGTH = 16;

    private static final String TOKEN_FILE = "the HTTP token file (http.auth-token-file)";
    private static final String PASSWORD_FILE = "the keystore password file (http.tls.keystore-password-file)";
    private static final String CERT = Keys.HTTP_TLS_CERT_FILE;
    private static final String KEY = Keys.HTTP_TLS_KEY_FILE;
    private static final String KEYSTORE = Keys.HTTP_TLS_KEYSTORE_FILE;
    private static final String PASSWORD = Keys.HTTP_TLS_KEYSTORE_PASSWORD_FILE;

    private HttpSettingsReader() {
    }

    /** The HTTP settings of {@code values}; a {@link ConfigError} says which key is wrong and why. */
    public static HttpSettings read(ConfigValues values) {
        HttpSettings http = new HttpSettings(null, null, values.millis(Keys.HTTP_IDLE_TIMEOUT_MS), values.millis(Keys.HTTP_FORWARD_TIMEOUT_MS),
                values.get(Keys.HTTP_ADVERTISED_HOST).map(String::strip).filter(h -> !h.isEmpty()).orElse(null));
        Optional<String> tokenFile = values.get(Keys.HTTP_AUTH_TOKEN_FILE);
        if (tokenFile.isPresent()) {
            http = http.withAuthToken(token(tokenFile.get()));
        }
        Optional<String> tokensFile = values.get(Keys.HTTP_TOKENS_FILE);
        if (tokensFile.isPresent()) {
            http = http.withTokensFile(tokens(tokensFile.get()));
        }
        Optional<String> ca = values.get(Keys.HTTP_TLS_CA_FILE);
        Optional<TlsIdentity> identity = tls(values);
        if (ca.isPresent() && identity.isEmpty()) {
            throw new ConfigError(Keys.HTTP_TLS_CA_FILE + " is set but TLS is not (" + CERT + " and " + KEY + ", or " + KEYSTORE + ")");
        }
        if (ca.isPresent()) {
            try {
                identity = Optional.of(identity.get().trusting(path(Keys.HTTP_TLS_CA_FILE, ca.get())));
            } catch (IllegalArgumentException e) {
                throw new ConfigError(e.getMessage());
            }
        }
        return identity.map(http::withTls).orElse(http);
    }

    /** The tokens file's path, once it reads as one (its lines are named in an error, never its tokens). */
    private static Path tokens(String file) {
        Path path = path(Keys.HTTP_TOKENS_FILE, file);
        try {
            AccessTokens.read(path);
        } catch (IllegalArgumentException e) {
            throw new ConfigError(e.getMessage());
        }
        return path;
    }

    private static Secret token(String file) {
        Secret token = ApiKeyReader.fromFile(file, TOKEN_FILE);
        String value = token.reveal();
        if (value.length() < MIN_TOKEN_LENGTH) {
            throw new ConfigError(TOKEN_FILE + " holds " + value.length() + " characters: a token needs at least "
                    + MIN_TOKEN_LENGTH + " (e.g. openssl rand -hex 32)");
        }
        if (!value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new ConfigError(TOKEN_FILE + " must hold one token of visible ASCII characters, no spaces or line breaks");
        }
        return token;
    }

    private static Optional<TlsIdentity> tls(ConfigValues values) {
        Optional<String> cert = values.get(CERT);
        Optional<String> key = values.get(KEY);
        Optional<String> keystore = values.get(KEYSTORE);
        Optional<String> password = values.get(PASSWORD);
        if (keystore.isPresent() && (cert.isPresent() || key.isPresent())) {
            throw new ConfigError("give either " + CERT + " and " + KEY + " (PEM) or " + KEYSTORE + " (PKCS12), not both");
        }
        if (cert.isPresent() != key.isPresent()) {
            throw new ConfigError(cert.isPresent() ? CERT + " needs " + KEY + " (its private key)" : KEY + " needs " + CERT
                    + " (its certificate chain)");
        }
        if (password.isPresent() && keystore.isEmpty()) {
            throw new ConfigError(PASSWORD + " is set but " + KEYSTORE + " is not");
        }
        try {
            if (cert.isPresent()) {
                return Optional.of(TlsIdentity.fromPem(path(CERT, cert.get()), path(KEY, key.get())));
            }
            if (keystore.isPresent()) {
                if (password.isEmpty()) {
                    throw new ConfigError(KEYSTORE + " needs " + PASSWORD + " (a file holding its password)");
                }
                return Optional.of(TlsIdentity.fromPkcs12(path(KEYSTORE, keystore.get()), ApiKeyReader.fromFile(password.get(), PASSWORD_FILE)));
            }
        } catch (ConfigError e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ConfigError(e.getMessage());
        }
        return Optional.empty();
    }

    private static Path path(String key, String value) {
        try {
            return Path.of(value.strip());
        } catch (InvalidPathException e) {
            throw new ConfigError(key + " is not a valid path: " + e.getMessage());
        }
    }
}
