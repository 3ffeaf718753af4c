package io.quotaflow.simulator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KeywordClassifierTest {

    private final KeywordClassifier classifier = new KeywordClassifier();

    @Test
    void shouldCountExactlyAsTheRulesPatternFindsAtEveryPosition() {
        String[] pieces = {"refund", "refunded", "o quanto antes", "o\tquanto  antes", "can't", "cant", "sign-in", "2fa", "500",
                "5000", "api", "apis", "rapid", "is down", "is\ndown", "nao consigo", "não", "cobrança", "fatura", "x", " ", "  ",
                "\n", ",", ".", "-", "'", "_", "é", "ação", "日本", "error", "erro", "errors", "never arrived", "arrive", "log in",
                "login", "logins", "a", "o", "pago", "pagamento", "how do i", "how do", "track", "tracking", "ship", "shipped"};
        java.util.Random random = new java.util.Random(7);
        for (int n = 0; n < 3_000; n++) {
            StringBuilder text = new StringBuilder();
            int parts = 1 + random.nextInt(30);
            for (int i = 0; i < parts; i++) {
                text.append(pieces[random.nextInt(pieces.length)]);
                if (random.nextInt(3) > 0) {
                    text.append(' ');
                }
            }
            String normalized = KeywordClassifier.normalize(text.toString());
            for (KeywordClassifier.Rule rule : KeywordClassifier.rules()) {
                java.util.regex.Matcher m = rule.pattern().matcher(normalized);
                int expected = 0;
                while (m.find()) {
                    expected++;
                }
                assertThat(rule.count(normalized)).as("%s in [%s]", rule.pattern(), normalized).isEqualTo(expected);
            }
        }
    }

    @ParameterizedTest(name = "{0} / {1} → {2}, {3}")
    @CsvSource(delimiter = '|', value = {
            "Invoice wrong        | I was charged twice, please refund                 | billing   | medium",
            "Fatura               | Cobrança indevida, quero o reembolso               | billing   | medium",
            "Cobranca             | cobranca sem acento tambem conta como pagamento    | billing   | medium",
            "Package late         | Tracking shows it shipped but no delivery          | shipping  | medium",
            "Entrega              | O pacote não chegou, rastreio parado               | shipping  | medium",
            "Login                | I cannot log in, password reset link is broken     | account   | high",
            "Senha                | Não consigo acessar minha conta                    | account   | high",
            "Site down            | Production is down after deploy, API error 502     | technical | critical",
            "Sistema fora do ar   | O sistema está fora do ar, erro em tudo            | technical | critical",
            "App travando         | o app está travando, falha ao abrir, urgente       | technical | critical",
            "Security breach      | We think our account was hacked                    | account   | critical",
            "Feature request      | Would be nice to have dark mode                    | other     | low",
            "Dúvida               | Tenho uma sugestão sobre o painel                  | other     | low",
            "Hello                | Thanks for the download link                       | other     | medium",
            "Can't pay            | Can’t complete the payment, blocked                | billing   | high",
    })
    void shouldClassifyEnglishAndPortugueseTickets(String subject, String body, String category, String urgency) {
        KeywordClassifier.Result result = classifier.classify(subject, body);
        assertThat(result.category()).isEqualTo(category);
        assertThat(result.urgency()).isEqualTo(urgency);
    }

    @ParameterizedTest(name = "restricted sets: {0}")
    @CsvSource(delimiter = '|', value = {
            "refund now please, urgent | BILLING | P2",   // allowed case-insensitively, in the request's spelling
            "the app crashes           | misc    | P2",   // technical not allowed → last category
            "how do I change my name   | misc    | P2",   // low not allowed → second urgency
    })
    void shouldFallBackToLastCategoryAndSecondUrgency(String body, String category, String urgency) {
        KeywordClassifier.Result result = classifier.classify(null, body, List.of("BILLING", "misc"),
                List.of("P1", "P2", "P3"));
        assertThat(result.category()).isEqualTo(category);
        assertThat(result.urgency()).isEqualTo(urgency);
    }

    @org.junit.jupiter.api.Test
    void shouldUseTheOnlyUrgencyWhenJustOneIsAllowed() {
        assertThat(classifier.classify("x", "y", List.of("other"), List.of("only")))
                .isEqualTo(new KeywordClassifier.Result("other", "only"));
    }

    @org.junit.jupiter.api.Test
    void shouldUseDefaultSetsWhenTheRequestHasNone() {
        assertThat(classifier.classify("Refund", null, List.of(), null))
                .isEqualTo(new KeywordClassifier.Result("billing", "medium"));
    }
}
