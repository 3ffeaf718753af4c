package io.quotaflow.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code http.tls.*}: a PEM pair (PKCS#8 or PKCS#1 RSA) or a PKCS12 keystore, and what is wrong with a bad one. */
class TlsIdentityTest {

    @Test
    void shouldReadAPkcs12KeystoreAndTheSameKeyAsPem(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "ec", "EC");

        TlsIdentity keystore = TlsIdentity.fromPkcs12(f.keystore(), Secret.of(TestCertificates.PASSWORD));
        TlsIdentity pem = TlsIdentity.fromPem(f.certPem(), f.keyPem());

        assertThat(pem.chain()).isEqualTo(keystore.chain());
        assertThat(keystore.serverContext().getProtocol()).isEqualTo("TLS");
        assertThat(pem.peerContext().getProtocol()).isEqualTo("TLS");
        assertThat(pem.toString()).contains("CN=localhost").doesNotContain(TestCertificates.PASSWORD);
    }

    @Test
    void shouldReadAPkcs1RsaKey(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "rsa", "RSA");
        String pkcs8 = Files.readString(f.keyPem());
        byte[] der = java.util.Base64.getMimeDecoder().decode(pkcs8.replaceAll("-----[A-Z ]+-----", ""));
        Path pkcs1 = Files.writeString(dir.resolve("rsa1.key"), TestCertificates.pem("RSA PRIVATE KEY", TestCertificates.pkcs1Of(der)));

        assertThat(TlsIdentity.fromPem(f.certPem(), pkcs1).chain()).hasSize(1);
    }

    @Test
    void shouldSayWhatIsWrongWithEachFile(@TempDir Path dir) throws Exception {
        TestCertificates.Files4 f = TestCertificates.generate(dir, "ec", "EC");
        Path other = Files.writeString(dir.resolve("other.key"), TestCertificates.pem("PRIVATE KEY",
                KeyPairGenerator.getInstance("EC").generateKeyPair().getPrivate().getEncoded()));
        Path encrypted = Files.writeString(dir.resolve("enc.key"), "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");

        assertThatThrownBy(() -> TlsIdentity.fromPem(f.certPem(), other)).hasMessageContaining("is not the key of the certificate");
        assertThatThrownBy(() -> TlsIdentity.fromPem(f.certPem(), encrypted)).hasMessageContaining("is encrypted");
        assertThatThrownBy(() -> TlsIdentity.fromPem(f.keyPem(), f.keyPem())).hasMessageContaining("http.tls.cert-file");
        assertThatThrownBy(() -> TlsIdentity.fromPem(f.certPem(), f.certPem())).hasMessageContaining("holds no PEM private key");
        assertThatThrownBy(() -> TlsIdentity.fromPem(dir.resolve("none.crt"), f.keyPem())).hasMessageContaining("no such file");
        assertThatThrownBy(() -> TlsIdentity.fromPkcs12(f.keystore(), Secret.of("not-the-password")))
                .hasMessageContaining("wrong password").hasMessageNotContaining("not-the-password");
        assertThatThrownBy(() -> TlsIdentity.fromPkcs12(f.certPem(), Secret.of(TestCertificates.PASSWORD)))
                .hasMessageContaining("is not a PKCS12 keystore");
    }
}
