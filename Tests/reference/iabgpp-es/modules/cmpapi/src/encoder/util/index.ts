export * from "./StringUtil.js";
