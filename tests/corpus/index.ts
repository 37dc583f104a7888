import { abortCases } from "./aborts.ts";
import { asyncCases } from "./async.ts";
import type { Case } from "./case.ts";
import { debugValueCases } from "./debug-values.ts";
import { deepCases } from "./deep.ts";
import { developmentCases } from "./development.ts";
import { elementCases } from "./elements.ts";
import { errorCases } from "./errors.ts";
import { fuzzCases } from "./fuzz-regressions.ts";
import { importStringCases } from "./import-strings.ts";
import { largeValueCases } from "./large-values.ts";
import { pageCases } from "./pages.ts";
import { repeatedElementCases } from "./repeated-elements.ts";
import { valueCases } from "./values.ts";

export const corpus: Case[] = [...valueCases, ...elementCases, ...repeatedElementCases, ...asyncCases, ...errorCases, ...pageCases, ...fuzzCases, ...abortCases, ...developmentCases, ...debugValueCases, ...deepCases, ...importStringCases, ...largeValueCases];
