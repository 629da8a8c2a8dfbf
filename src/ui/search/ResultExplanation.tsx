import type { Bm25Explanation, FusionExplanation, GqrScorePieces, PartExplanation } from '../../core/index.ts';

const fixed = (x: number, digits = 6) => x.toFixed(digits);
const rankText = (part: PartExplanation) => (part.rank === null ? `not in its top ${part.depth}` : `rank ${part.rank} of its top ${part.depth}`);

/** Why one result ranked where it did: the pipeline's parts, each with its own arithmetic (all numbers as text). */
export function ResultExplanation({ why, shownScore }: { why: PartExplanation; shownScore: number }) {
  return (
    <div className="result-explanation" data-testid="result-explanation">
      <p className="meta">
        Score shown {fixed(shownScore)}; explained {why.score === null ? '—' : fixed(why.score)}
        {why.score !== null && why.score === shownScore ? ' (the same number)' : ''}.
      </p>
      <Part part={why} top />
    </div>
  );
}

function Part({ part, top = false, role }: { part: PartExplanation; top?: boolean; role?: string }) {
  return (
    <section className="explain-part" aria-label={`Why: ${part.label}`} data-kind={part.kind}>
      <h4>
        {role ? `${role}: ` : ''}
        {part.label} — {top ? `result ${part.rank ?? '?'}` : rankText(part)}
        {part.score !== null ? `, score ${fixed(part.score)}` : ''}
      </h4>
      {part.kind === 'bm25' && <Bm25Table why={part.bm25} />}
      {part.kind === 'dense' && (
        <p data-testid="dense-score">
          {part.similarity === 'cosine' ? 'Cosine (dot product of unit vectors)' : 'MaxSim (mean over query tokens of the best token match)'} of the query and the
          document under {part.model}: {part.score === null ? 'not computed (outside the list)' : fixed(part.score)}
          {part.rank === null ? ' — outside this list' : ''}
        </p>
      )}
      {(part.kind === 'rrf' || part.kind === 'cc') && (
        <>
          {part.fusion ? <FusionTable fusion={part.fusion} labels={[part.children[0].label, part.children[1].label]} /> : <p>Neither list holds this document.</p>}
          <div className="explain-children">
            <Part part={part.children[0]} role="List 1" />
            <Part part={part.children[1]} role="List 2" />
          </div>
        </>
      )}
      {part.kind === 'gqr' && (
        <>
          {part.gqr ? <GqrPieces pieces={part.gqr} /> : <p>The GQR pool does not hold this document.</p>}
          <div className="explain-children">
            <Part part={part.children[0]} role="Primary" />
            <Part part={part.children[1]} role="Complementary" />
          </div>
        </>
      )}
    </section>
  );
}

function Bm25Table({ why }: { why: Bm25Explanation }) {
  const { k1, b, d, termCountBoost } = why.params;
  return (
    <>
      <p className="meta" data-testid="bm25-params">
        k1 {k1} · b {b}
        {d !== 0 ? ` · d ${d}` : ''} · document length {why.documentLength} vs average {why.averageLength.toFixed(2)} over {why.documentCount} documents → length part
        k1·(1 − b + b·dl/avgdl) = {why.lengthNorm.toFixed(4)}
      </p>
      <table className="compact explain-table" aria-label="BM25 per-term contributions">
        <thead>
          <tr>
            <th>term</th>
            <th>df</th>
            <th>idf</th>
            <th>tf</th>
            <th>contribution</th>
          </tr>
        </thead>
        <tbody>
          {why.terms.map((t) => (
            <tr key={t.term} data-testid="bm25-term">
              <td>{t.term}</td>
              <td className="num">{t.documentFrequency}</td>
              <td className="num">{t.idf.toFixed(4)}</td>
              <td className="num">{t.termFrequency}</td>
              <td className="num" data-testid="bm25-contribution">
                {fixed(t.contribution)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={4}>
              sum{termCountBoost ? ` × ${why.matchedTerms} matched terms` : ''}
            </td>
            <td className="num" data-testid="bm25-sum">
              {fixed(why.score)}
            </td>
          </tr>
        </tfoot>
      </table>
      {why.unknownTerms.length > 0 && <p className="meta">No document holds: {why.unknownTerms.join(', ')}.</p>}
      <p className="meta">contribution = idf · {d !== 0 ? `(${d} + ` : ''}tf·(k1 + 1) / (tf + length part){d !== 0 ? ')' : ''}; idf = ln(1 + (N − df + 0.5) / (df + 0.5))</p>
    </>
  );
}

function FusionTable({ fusion, labels }: { fusion: FusionExplanation; labels: [string, string] }) {
  if (fusion.method === 'rrf') {
    return (
      <table className="compact explain-table" aria-label="Fusion arithmetic" data-testid="fusion-arithmetic">
        <thead>
          <tr>
            <th>list</th>
            <th>rank</th>
            <th>1/(k + rank), k = {fusion.k}</th>
          </tr>
        </thead>
        <tbody>
          {fusion.lists.map((list, i) =>
            list.ranks.length === 0 ? (
              <tr key={i}>
                <td>{labels[i]}</td>
                <td>absent from its top {fusion.fetchK}</td>
                <td className="num">1/({fusion.k} + {fusion.fetchK} + 1) = {fixed(fusion.missingTerm ?? 0)}</td>
              </tr>
            ) : (
              list.ranks.map((rank, j) => (
                <tr key={`${i}:${j}`}>
                  <td>{labels[i]}</td>
                  <td className="num">{rank}</td>
                  <td className="num">
                    1/({fusion.k} + {rank}) = {fixed(list.terms[j]!)}
                  </td>
                </tr>
              ))
            ),
          )}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>RRF score (sum)</td>
            <td className="num" data-testid="fusion-sum">
              {fixed(fusion.score)}
            </td>
          </tr>
        </tfoot>
      </table>
    );
  }
  return (
    <table className="compact explain-table" aria-label="Fusion arithmetic" data-testid="fusion-arithmetic">
      <thead>
        <tr>
          <th>list</th>
          <th>rank</th>
          <th>raw score</th>
          <th>normalised ({fusion.normalizeMethod}, over {fusion.candidates})</th>
          <th>× weight</th>
          <th>= part</th>
        </tr>
      </thead>
      <tbody>
        {fusion.lists.map((list, i) => (
          <tr key={i}>
            <td>{labels[i]}</td>
            <td className="num">{list.rank ?? 'absent'}</td>
            <td className="num">{list.raw === null ? '—' : fixed(list.raw)}</td>
            <td className="num">{fixed(list.normalized)}</td>
            <td className="num">{list.weight}</td>
            <td className="num">{fixed(list.weighted)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={5}>convex combination (sum)</td>
          <td className="num" data-testid="fusion-sum">
            {fixed(fusion.score)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function GqrPieces({ pieces }: { pieces: GqrScorePieces }) {
  const rows: Array<[string, string]> = [
    ['path', `${pieces.path} (${pieces.pathReason})`],
    ['settings', `α ${pieces.mixtureAlpha} · temperature ${pieces.temperature} · learning rate ${pieces.learningRate} · target ${pieces.target} · ${pieces.steps} steps · pool of ${pieces.poolSize}`],
    ['primary score', `${fixed(pieces.primaryScore)}${pieces.inPrimary ? '' : ' (floor: not in the primary list)'} → p⁽⁰⁾ ${fixed(pieces.primaryProbability)}`],
    ['complementary score', `${fixed(pieces.complementaryScore)}${pieces.inComplementary ? '' : ' (floor: not in the complementary list)'} → q ${fixed(pieces.complementaryProbability)}`],
    ['target probability', fixed(pieces.targetProbability)],
    ['score before → after refinement', `${fixed(pieces.initialScore)} → ${fixed(pieces.finalScore)}`],
    ['rank in the pool before → after', `${pieces.initialRank} → ${pieces.finalRank}`],
  ];
  return (
    <>
      <table className="compact explain-table" aria-label="GQR score pieces" data-testid="gqr-pieces">
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {pieces.notes.map((note) => (
        <p key={note} className="meta">
          {note}
        </p>
      ))}
    </>
  );
}
