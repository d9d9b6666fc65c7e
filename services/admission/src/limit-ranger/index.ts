export { newLimitRanger, limitRangerAnnotation } from './limit-ranger.js';
