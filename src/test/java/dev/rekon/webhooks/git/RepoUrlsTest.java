package dev.rekon.webhooks.git;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RepoUrlsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "https://github.com/acme/shop.git | github.com/acme/shop",
            "https://github.com/acme/shop | github.com/acme/shop",
            "https://github.com/acme/shop/ | github.com/acme/shop",
            "https://github.com/acme/shop.git/ | github.com/acme/shop",
            "https://github.com/acme/shop// | github.com/acme/shop",
            "http://github.com/acme/shop | github.com/acme/shop",
            "HTTPS://GitHub.COM/Acme/Shop.git | github.com/Acme/Shop",
            "https://github.com./acme/shop | github.com/acme/shop",
            "git@github.com:acme/shop.git | github.com/acme/shop",
            "git@github.com:acme/shop | github.com/acme/shop",
            "git@GITHUB.com:/acme/shop.git | github.com/acme/shop",
            "github.com:acme/shop.git | github.com/acme/shop",
            "ssh://git@github.com:22/acme/shop.git | github.com/acme/shop",
            "ssh://git@github.com/acme/shop.git | github.com/acme/shop",
            "ssh://git@git.example.com:2222/acme/shop.git | git.example.com/acme/shop",
            "git://github.com/acme/shop.git | github.com/acme/shop",
            "git+ssh://git@github.com/acme/shop.git | github.com/acme/shop",
            "https://github.com:443/acme/shop.git | github.com/acme/shop",
            "http://git.example.com:80/acme/shop | git.example.com/acme/shop",
            "https://git.example.com:3000/acme/shop.git | git.example.com:3000/acme/shop",
            "http://git.example.com:443/acme/shop | git.example.com:443/acme/shop",
            "https://user:s3cret@gitlab.example.com/group/sub/app.git | gitlab.example.com/group/sub/app",
            "https://gitlab.example.com/group/sub/app.git?ref=main#readme | gitlab.example.com/group/sub/app",
            "https://bitbucket.example.com/scm/ops/state.git | bitbucket.example.com/scm/ops/state",
            "https://[::1]:8443/acme/shop.git | [::1]:8443/acme/shop",
            "'  https://github.com/acme/shop.git  ' | github.com/acme/shop",
            "https://github.com | -",
            "https://github.com/ | -",
            "git@github.com: | -",
            "/srv/git/shop.git | -",
            "./shop:v1 | -",
            "'' | -",
            "- | -" })
    void normalisesEveryFormOfOneRepositoryToOneKey(String url, String key) {
        assertEquals(key, RepoUrls.normalise(url));
    }
}
