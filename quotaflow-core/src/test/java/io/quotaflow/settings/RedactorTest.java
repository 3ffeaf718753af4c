package io.quotaflow.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class RedactorTest {

    static final String KEY = "sk-LEAKCANARY0123456789abcdef2345";
    static final String BODY = "LEAKCANARY0123456789abcdef2345";

    /** No run of 6 characters of the key body survives, in any case. */
    private static void assertNoKeyBody(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        String body = BODY.toLowerCase(Locale.ROOT);
        for (int i = 0; i + 6 <= body.length(); i++) {
            assertThat(lower).as("text %s", text).doesNotContain(body.substring(i, i + 6));
        }
    }

    @Test
    void shouldMaskCredentialsInAUrl() {
        assertThat(Redactor.url(java.net.URI.create("https://bob:hunter2@llm.example.com:8443/v1")))
                .isEqualTo("https://***@llm.example.com:8443/v1");
        assertThat(Redactor.url(java.net.URI.create("https://llm.example.com/v1"))).isEqualTo("https://llm.example.com/v1");
    }

    @Test
    void shouldRedactTheExactKey() {
        String out = Redactor.redact("Incorrect key " + KEY + ". Check it.", KEY);
        assertThat(out).isEqualTo("Incorrect key ***. Check it.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sk-leakcanary0123456789abcdef2345", "SK-LEAKCANARY0123456789ABCDEF2345",
            "Sk-LeakCanary0123456789AbCdEf2345"})
    void shouldRedactTheKeyInAnyLetterCase(String form) {
        String out = Redactor.redact("key " + form + " rejected", KEY);
        assertThat(out).isEqualTo("key *** rejected");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sk-LEAKC********2345", "sk-leakc********2345", "sk-LEAKC\u2022\u2022\u2022\u2022\u2022\u20222345",
            "sk-LEAK...2345", "sk-LEAKC\u20262345", "sk-LEAKCxxxxxxxxxxxx2345", "****************2345", "sk-LEAKCA*****"})
    void shouldRedactAMaskedFormOfTheKey(String masked) {
        String out = Redactor.redact("Incorrect API key given (" + masked + "), see docs.", KEY);
        assertThat(out).isEqualTo("Incorrect API key given (***), see docs.");
    }

    @ParameterizedTest
    @ValueSource(strings = {"LEAKCANARY01", "canary0123", "56789abcdef2345", "x-CANARY0123456789-y"})
    void shouldRedactATokenSharingEightCharactersWithTheKey(String partial) {
        String out = Redactor.redact("prefix " + partial + " suffix", KEY);
        assertThat(out).isEqualTo("prefix *** suffix");
    }

    @Test
    void shouldRedactAKeyCutByTruncation() {
        String out = Redactor.redact("bad key sk-LEAKCANARY0123", KEY);
        assertThat(out).isEqualTo("bad key ***");
    }

    @Test
    void shouldNotRedactWhatMerelyResemblesTheKeyPrefix() {
        assertThat(Redactor.redact("Leak detected in canary build 42", KEY)).isEqualTo("Leak detected in canary build 42");
    }

    @Test
    void shouldRedactAKeyEmbeddedInJson() {
        String json = "{\"error\":{\"message\":\"bad\",\"api_key\":\"" + KEY + "\",\"param\":null}}";
        String out = Redactor.redact(json, KEY);
        assertThat(out).isEqualTo("{\"error\":{\"message\":\"bad\",\"api_key\":\"***\",\"param\":null}}");
        assertThat(Redactor.scrub(json)).doesNotContain(BODY).contains("\"api_key\":\"***\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL",
        "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_-Ab3dEf6hIj9k",
        "sk-ant-api03-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-Ab3dEf6hIj9kLm2nOp5qRs8tAA",
        "sk-svcacct-Ab3dEf6hIj9kLm2nOp5qRs8tUv1w",
        "AIzaSyAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
        "gsk_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n",
        "xai-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm2n",
        "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0000",
        "hf_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAbcd",
        "AKIAIOSFODNN7EXAMPLE"})
    void shouldScrubProviderKeyShapesWithoutAKey(String key) {
        String out = Redactor.scrub("Incorrect key " + key + " (check your settings)");
        assertThat(out).doesNotContain(key).doesNotContain(key.substring(key.length() - 8)).contains("***")
                .startsWith("Incorrect key ").endsWith(" (check your settings)");
    }

    @Test
    void shouldKeepOnlyTheNonSecretProviderPrefixAsAHint() {
        assertThat(Redactor.scrub("key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t was revoked")).isEqualTo("key sk-proj-*** was revoked");
        assertThat(Redactor.scrub("key AIzaSyAb3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z.")).isEqualTo("key AIza***.");
        assertThat(Redactor.scrub(Redactor.scrub("key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t"))).isEqualTo("key sk-proj-***");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc123",
        "curl -H 'Authorization: Bearer opaque-token-value-123'",
        "authorization=Basic dXNlcjpwYXNzd29yZA==",
        "bearer abcdefghijklmnopqrstuvwxyzABCD"})
    void shouldScrubAuthorizationCredentials(String text) {
        String out = Redactor.scrub(text);
        assertThat(out).contains("***").doesNotContain("eyJ").doesNotContain("opaque-token").doesNotContain("dXNlcj")
                .doesNotContain("abcdefghijklmnop");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "api_key=SECRETVALUE42", "api-key: SECRETVALUE42", "x-api-key: SECRETVALUE42", "\"api_key\": \"SECRETVALUE42\"",
        "apiKey=SECRETVALUE42", "https://host/v1?key=1&api_key=SECRETVALUE42&x=1", "llm.api-key=SECRETVALUE42",
        "Incorrect API key provided: SECRETVALUE42.", "client_secret=SECRETVALUE42", "ssl.keystore.password=SECRETVALUE42",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"u\" password=\"SECRETVALUE42\";",
        "sasl.jaas.config=SECRETVALUE42", "access_token=SECRETVALUE42"})
    void shouldScrubTheValueOfASecretPair(String text) {
        assertThat(Redactor.scrub(text)).doesNotContain("SECRETVALUE42").contains("***");
    }

    @Test
    void shouldKeepThePairNameAndQuoting() {
        assertThat(Redactor.scrub("{\"api_key\":\"abc\",\"n\":1}")).isEqualTo("{\"api_key\":\"***\",\"n\":1}");
        assertThat(Redactor.scrub("x-api-key: abc, next")).isEqualTo("x-api-key: ***, next");
        assertThat(Redactor.scrub("username=\"u\" password=\"p\";")).isEqualTo("username=\"u\" password=\"***\";");
    }

    @Test
    void shouldScrubAnyKeyishTokenWithAMaskRun() {
        assertThat(Redactor.scrub("Incorrect API key: see sk-LEAKC********2345 now")).doesNotContain("LEAKC").doesNotContain("2345");
        assertThat(Redactor.scrub("token ab12\u2022\u2022\u2022\u2022\u2022\u2022cd34 rejected")).isEqualTo("token *** rejected");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Rate limit reached for gpt-4o-mini in organization org-abc on tokens per min (TPM): Limit 30000, Used 29000, "
                + "Requested 1500. Please try again in 2.5s.",
        "Rate limit reached for gpt-4o-mini in organization org-abc on requests per min (RPM): Limit 500, Used 500, "
                + "Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits to learn more.",
        "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.",
        "You exceeded your current quota, please check your plan and billing details.",
        "Bearer authentication failed: token expired",
        "The server had an error while processing your request. Sorry about that! (request id req_8f2c1d0e9b7a6)",
        "max_tokens: 4096 is too large; task-force scheduling... done",
        "**bold** and a*b and *** and sk-*** and sk-learn",
        "connection error: Connection refused: localhost/127.0.0.1:8089",
        "quota.rpm must be an integer, got 'lots'"})
    void shouldLeaveOrdinaryErrorTextUnchanged(String text) {
        assertThat(Redactor.scrub(text)).isEqualTo(text);
        assertThat(Redactor.redact(text, KEY)).isEqualTo(text);
    }

    @Test
    void shouldBeNullSafe() {
        assertThat(Redactor.scrub(null)).isNull();
        assertThat(Redactor.redact(null, KEY)).isNull();
        assertThat(Redactor.redact("plain", null)).isEqualTo("plain");
        assertThat(Redactor.scrub("")).isEmpty();
    }

    @Test
    void shouldNeverLeaveAnyPartOfTheKeyBody() {
        String text = "a " + KEY + " b " + KEY.toLowerCase(Locale.ROOT) + " c sk-LEAKC********2345 d \"api_key\":\"" + KEY
                + "\" e Bearer " + KEY + " f " + KEY.substring(5, 20);
        String out = Redactor.redact(text, KEY);
        assertNoKeyBody(out);
        assertThat(out).startsWith("a *** b *** c *** d ").contains(" f ***");
    }

    @Test
    void shouldRecogniseSecretNames() {
        assertThat(Redactor.isSecretName("--llm-api-key")).isTrue();
        assertThat(Redactor.isSecretName("--llm-api-key-file")).isTrue();
        assertThat(Redactor.isSecretName("sasl.jaas.config")).isTrue();
        assertThat(Redactor.isSecretName("ssl.keystore.password")).isTrue();
        assertThat(Redactor.isSecretName("ssl.key.password")).isTrue();
        assertThat(Redactor.isSecretName("llm.apikey")).isTrue();
        assertThat(Redactor.isSecretName("bootstrap.servers")).isFalse();
        assertThat(Redactor.isSecretName("key.serializer")).isFalse();
        assertThat(Redactor.isSecretName("--rpm")).isFalse();
        assertThat(Redactor.isSecretName(null)).isFalse();
    }
}
