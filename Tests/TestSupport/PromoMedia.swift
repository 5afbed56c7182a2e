/// The media of `Examples/promo` (which the other examples share), made once per test process
/// by the same script the README's demo uses: nil when they are ready, else why not.
public let promoMediaProblem: String? = {
    do {
        try MediaFactory.run("bash", [repositoryRoot.appendingPathComponent("scripts/make-promo-media.sh").path])
        return nil
    } catch {
        return "\(error)"
    }
}()
