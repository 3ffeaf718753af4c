package io.quotaflow.config;

import io.quotaflow.settings.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code http.auth-token-file}, {@code http.tls.*} and the HTTP timeouts: read from every source, refused with a clear reason. */
class HttpSettingsConfigTest {

    private static final String TOKEN = "Zm9yLXRlc3RzLW9ubHktMDEyMzQ1Njc4OQ";
    private static final Map<String, String> FLAGS = Map.of("bootstrap.servers", "b:9092", "llm.base-url", "http://sim:8089/v1");

    private static QuotaflowConfig load(Map<String, String> variables) {
        Map<String, String> env = new HashMap<>(variables);
        env.put("QUOTAFLOW_LLM_API_KEY", "sk-env-secret");
        return ConfigLoader.load(null, env, FLAGS);
    }

    @Test
    void shouldServePlainHttpWithoutATokenByDefault() {
        QuotaflowConfig config = load(Map.of());

        assertThat(config.http().token()).isEmpty();
        assertThat(config.http().identity()).isEmpty();
        assertThat(config.http().scheme()).isEqualTo("http");
        assertThat(config.http().idleTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(config.http().forwardTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void shouldReadTheTokenFileNamedByTheVariableAndNeverPrintTheToken(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("token"), TOKEN + "\n");

        QuotaflowConfig config = load(Map.of("QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", file.toString(),
                "QUOTAFLOW_HTTP_FORWARD_TIMEOUT_MS", "1500", "QUOTAFLOW_HTTP_IDLE_TIMEOUT_MS", "30000"));

        assertThat(config.http().token()).hasValueSatisfying(t -> assertThat(t.reveal()).isEqualTo(TOKEN));
        assertThat(config.http().forwardTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(config.http().idleTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.toString()).doesNotContain(TOKEN);
    }

    @Test
    void shouldRefuseATokenFileThatHoldsNoUsableToken(@TempDir Path dir) throws Exception {
        Path shortToken = Files.writeString(dir.resolve("short"), "abc123");
        Path spaced = Files.writeString(dir.resolve("spaced"), "two words of a token, long enough");
        Path empty = Files.writeString(dir.resolve("empty"), "\n");

        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", shortToken.toString())))
                .isInstanceOf(ConfigError.class).hasMessageContaining("http.auth-token-file").hasMessageContaining("at least 16")
                .hasMessageNotContaining("abc123");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", spaced.toString())))
                .hasMessageContaining("visible ASCII").hasMessageNotContaining("two words");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", empty.toString()))).hasMessageContaining("is empty");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", TOKEN)))
                .as("a token pasted where its file belongs is not shown").hasMessageContaining("no such file").hasMessageNotContaining(TOKEN);
    }

    @Test
    void shouldServeHttpsFromAPemPairOrAKeystore(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "cfg", "EC");

        QuotaflowConfig pem = load(Map.of("QUOTAFLOW_HTTP_TLS_CERT_FILE", f.certPem().toString(),
                "QUOTAFLOW_HTTP_TLS_KEY_FILE", f.keyPem().toString()));
        QuotaflowConfig keystore = load(Map.of("QUOTAFLOW_HTTP_TLS_KEYSTORE_FILE", f.keystore().toString(),
                "QUOTAFLOW_HTTP_TLS_KEYSTORE_PASSWORD_FILE", f.passwordFile().toString()));

        assertThat(pem.http().scheme()).isEqualTo("https");
        assertThat(keystore.http().identity()).hasValueSatisfying(i -> assertThat(i.chain()).isEqualTo(pem.http().tls().chain()));
        assertThat(keystore.toString()).doesNotContain(TestCertificates.PASSWORD);
    }

    @Test
    void shouldRefuseAnIncompleteOrAmbiguousTlsSetting(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "cfg", "EC");
        Path wrongPassword = Files.writeString(dir.resolve("wrong.pw"), "not-the-password");

        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_CERT_FILE", f.certPem().toString())))
                .isInstanceOf(ConfigError.class).hasMessage("http.tls.cert-file needs http.tls.key-file (its private key)");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_KEY_FILE", f.keyPem().toString())))
                .hasMessage("http.tls.key-file needs http.tls.cert-file (its certificate chain)");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_KEYSTORE_FILE", f.keystore().toString())))
                .hasMessageContaining("http.tls.keystore-file needs http.tls.keystore-password-file");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_KEYSTORE_FILE", f.keystore().toString(),
                "QUOTAFLOW_HTTP_TLS_CERT_FILE", f.certPem().toString(), "QUOTAFLOW_HTTP_TLS_KEY_FILE", f.keyPem().toString())))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_KEYSTORE_PASSWORD_FILE", f.passwordFile().toString())))
                .hasMessageContaining("http.tls.keystore-file is not");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_KEYSTORE_FILE", f.keystore().toString(),
                "QUOTAFLOW_HTTP_TLS_KEYSTORE_PASSWORD_FILE", wrongPassword.toString())))
                .isInstanceOf(ConfigError.class).hasMessageContaining("wrong password").hasMessageNotContaining("not-the-password");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_CERT_FILE", f.keyPem().toString(),
                "QUOTAFLOW_HTTP_TLS_KEY_FILE", f.certPem().toString())))
                .isInstanceOf(ConfigError.class).hasMessageContaining("http.tls.cert-file " + f.keyPem());
    }

    @Test
    void shouldRefuseTimeoutsBelowATenthOfASecond() {
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_IDLE_TIMEOUT_MS", "50")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http.idle-timeout-ms").hasMessageContaining("at least 100");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_FORWARD_TIMEOUT_MS", "0")))
                .hasMessageContaining("http.forward-timeout-ms").hasMessageContaining("at least 100");
    }

    @Test
    void shouldReadTheTokensFileTheCaFileAndTenantLabelsAndRefuseABadTokensLineWithoutItsToken(@TempDir Path dir) throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), TOKEN + " acme\n");
        io.quotaflow.settings.TestCertificates.Files4 f = io.quotaflow.settings.TestCertificates.generate(dir, "ca", "EC");

        QuotaflowConfig config = load(Map.of("QUOTAFLOW_HTTP_TOKENS_FILE", tokens.toString(), "QUOTAFLOW_METRICS_TENANT_LABELS", "true",
                "QUOTAFLOW_HTTP_TLS_CERT_FILE", f.certPem().toString(), "QUOTAFLOW_HTTP_TLS_KEY_FILE", f.keyPem().toString(),
                "QUOTAFLOW_HTTP_TLS_CA_FILE", f.certPem().toString()));

        assertThat(config.http().tokens()).contains(tokens);
        assertThat(config.http().tls().authorities()).hasSize(1);
        assertThat(config.http().tls().files()).contains(f.certPem(), f.keyPem());
        assertThat(config.metrics().tenantLabels()).isTrue();
        assertThat(load(Map.of()).metrics().tenantLabels()).as("the default").isFalse();
        Path bad = Files.writeString(dir.resolve("bad"), TOKEN + " acme extra\n");
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TOKENS_FILE", bad.toString()))).hasMessageContaining("line 1")
                .hasMessageNotContaining(TOKEN);
        assertThatThrownBy(() -> load(Map.of("QUOTAFLOW_HTTP_TLS_CA_FILE", f.certPem().toString()))).hasMessageContaining("TLS is not");
    }
}
